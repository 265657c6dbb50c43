"""What the table page shows, shaped from the games selectors (the same reads the REST API
makes): the seats around the viewer, the teams' melds, the buttons, the move log, the previews'
sentences, and a finished game's afterwords."""

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.http import quote_etag

from accounts.models import User
from club.i18n import current_language, text
from games import selectors as game_selectors
from games import table_phrases
from games.bodies import DealView, GameDetail
from games.engine import IllegalMove
from games.engine.cards import WILDS
from games.engine.preview import Opening
from games.engine.seating import Seating
from games.illegal_moves import words
from games.models import Game, Invitation, Seat, TablePhrase
from games.selectors import time_off
from games.selectors.presence import absence_deadline
from games.services import MoveResult
from games.store import LoadedGame
from games.table_phrases import SHOWN_FOR, phrase_text
from web.shared import attach_standings, game_name, player_name
from web.table.move_log import (
    LoggedTurn,
    MovePhrase,
    SaidPhrase,
    club_played_for_you,
    logged_turns,
    place_said,
)
from web.table.names import meld_face, meld_name

# Meld ranks in the order the table shows them (high to low, black threes last).
# A sequence (Samba, Bolivia) has no rank (None): its meld sorts after the groups.
_RANK_ORDER: dict[str | None, int] = {rank: index for index, rank in enumerate("AKQJT9876543")}
# The log shows the last few turns, read from the last MOVE_WINDOW moves.
RECENT_TURNS = 3
# The strip by the seats shows the last few phrases.
RECENT_SAID = 3
MOVE_WINDOW = 12
# The house rules' actions (R-HOUSE-ASK, R-HOUSE-DOUBLE): buttons that post the engine's own.
HOUSE_ACTIONS = ("ask_to_go_out", "answer_go_out", "lay_down", "pass")
PLAIN_TAKE = {"type": "take_pile", "cards": []}


@dataclass
class SeatPlace:
    """A seat as placed around the viewer, in the order of play: the next seat on the left,
    the last one on the right, the others across the table (partners, at four, opposite)."""

    seat: int
    place: str  # "me" | "left" | "across" | "right"
    role: str  # "me" | "partner" | "opponent"
    player: Mapping[str, Any] | None
    hand_count: int | None
    is_turn: bool
    # R-CLUB-2 in a live game: the player is away (their turns are played at once), or has
    # dropped and is waited for until `away_at`. Bots are never away.
    away: bool = False
    away_at: datetime | None = None
    # The seat's latest phrase while it is shown (table_phrases.SHOWN_FOR).
    said: SaidPhrase | None = None
    # A waiting table's seat kept for an invited player (their invitation).
    invitation: "InvitationShown | None" = None

    # The last finished deal whose summary the seat's player has closed.
    deal_seen: int = 0


@dataclass(frozen=True)
class InvitationShown:
    """A seat kept for an invited player, as the waiting table shows it."""

    pk: int
    seat: int
    player: dict[str, Any]  # shaped as the selectors shape players, for `{% person %}`
    expires_at: datetime
    yours: bool  # the viewer is the one invited
    sent_by_you: bool  # the viewer invited them


@dataclass
class TeamArea:
    team: int
    ours: bool
    names: list[str]  # the team's players, in seat order
    players: Sequence[Mapping[str, Any]]  # the players as the selectors shape them ({% person %})
    score: int
    opened: bool
    minimum: int
    red_threes: list[str]
    melds: list[dict[str, Any]]

    @property
    def label(self) -> str:
        return ", ".join(self.names)


@dataclass(frozen=True)
class StoppedClock:
    """Why the turn's clock stands still, and until when (an ISO moment): the game's agreed
    pause, or the player to move on vacation or on a day off (correspondence games)."""

    reason: str  # "pause" | "vacation" | "day_off"
    until: str


@dataclass(frozen=True)
class SideSummary:
    """One side's part of a finished deal (R-SCORE-1): its melds, canastas, red threes, going
    out, the cards left in its hands, the deal's total and the match score after it."""

    team: int
    ours: bool
    players: Sequence[Mapping[str, Any]]
    melds: list[dict[str, Any]]
    line: dict[str, int]  # the engine's result line: cards, canastas, red_threes, going_out, …
    canastas: int
    red_threes: list[str]
    went_out: bool
    cards_left: int
    score: int


@dataclass(frozen=True)
class DealSummary:
    """A finished deal's score for every side (`[data-deal-summary]`), shown to each person
    until they close it («Дальше») or move; in a live game's break, with who is still reading
    and until when the next deal's clock waits."""

    number: int
    sides: list[SideSummary]
    # The live break: when the next deal's clock starts at the latest, and who still reads.
    break_until: datetime | None = None
    reading: list[Mapping[str, Any]] = field(default_factory=list)

    @property
    def stock_ran_out(self) -> bool:
        return not any(side.went_out for side in self.sides)


@dataclass(frozen=True)
class DealBreakWait:
    """A live game's break once the viewer has closed the deal's score: who of the others is
    still reading it, and when the next deal's clock starts at the latest."""

    number: int
    until: datetime
    reading: list[Mapping[str, Any]]


@dataclass(frozen=True)
class AutoplayedTurn:
    """A turn the club played for the viewer: why, and what it did."""

    reason: str  # "timeout" | "absent"
    phrases: list[MovePhrase]
    # The player's first live timeout in the game: the note offers the ways on with it.
    offer: bool = False
    # The turn's first move (its place in the game's log): tells one note from the next.
    seq: int = 0


@dataclass(frozen=True)
class GameResult:
    """The end of the game for the viewer (`[data-result]`): "won", "lost" or "draw" (a
    spectator: "over"), and the final score of every side, highest first."""

    outcome: str
    sides: list[dict[str, Any]]  # team, ours, players, score, won


@dataclass
class TablePage:
    game: Game
    now: datetime  # the club's clock when the table was read
    detail: GameDetail
    seat: Seat | None
    places: list[SeatPlace]
    teams: list[TeamArea]
    can: dict[str, bool]
    house: dict[str, list[dict[str, Any]]]  # house action type -> the legal ones
    turns: list[LoggedTurn]  # the log, newest turn first
    seating: Seating
    # Seats nobody sits at: free before the start, or abandoned in a game waiting for a bot.
    free_seats: list[int] = field(default_factory=list)
    may_seat_bots: bool = False
    invite_code: str = ""
    # Why the viewer cannot make each of the five moves now (the engine's refusals).
    refused: dict[str, IllegalMove] = field(default_factory=dict)
    # The turn's melds toward the opening minimum, while below it (the viewer's turn).
    opening: Opening | None = None
    # Samba, Bolivia: the indices of the side's melds the pile's top card may join alone
    # (R-SAMBA-PILE (b)), as the engine offers those takes.
    pile_melds: list[int] = field(default_factory=list)
    # The last finished deal's score, while the viewer has not closed it.
    deal_summary: DealSummary | None = None
    # A live break the viewer has closed the score of, while others still read it.
    break_wait: DealBreakWait | None = None
    # The turns the club played for the viewer since their last move, oldest first.
    autoplayed: list[AutoplayedTurn] = field(default_factory=list)
    # The table's latest phrases, oldest first (the viewer's own only, if they muted the
    # others'), and whether the viewer muted them.
    said: list[SaidPhrase] = field(default_factory=list)
    phrases_muted: bool = False
    # A waiting table's seats kept for invited players, by seat.
    invitations: list[InvitationShown] = field(default_factory=list)
    # A game over: the table of its rematch, once someone opened it.
    rematch_id: int | None = None

    @cached_property
    def phrase_menu(self) -> list[dict[str, str]]:
        """The table's phrases a seated player may say, in the page's language."""
        return table_phrases.catalogue()

    @cached_property
    def recent_said(self) -> list[SaidPhrase]:
        """The strip by the seats: the last few phrases, newest first."""
        return self.said[::-1][:RECENT_SAID]

    @cached_property
    def your_invitation(self) -> InvitationShown | None:
        return next((invitation for invitation in self.invitations if invitation.yours), None)

    @cached_property
    def bot_seats(self) -> list[int]:
        """The free seats a bot may take: none kept for an invited player."""
        kept = {invitation.seat for invitation in self.invitations}
        return [seat for seat in self.free_seats if seat not in kept]

    @cached_property
    def open_seats(self) -> list[int]:
        """The free seats the viewer may take: not those kept for invited players, but for
        their own."""
        kept = {invitation.seat for invitation in self.invitations if not invitation.yours}
        return [seat for seat in self.free_seats if seat not in kept]

    @cached_property
    def why(self) -> dict[str, str]:
        """Why each of the five buttons is disabled, in the page's language: the engine's
        refusal, or, for a move that waits for cards, which cards to select."""
        reasons = {kind: text(*words(refusal)) for kind, refusal in self.refused.items()}
        if "take_pile" not in reasons and not self.can["take_pile"]:
            reasons["take_pile"] = text(
                "Выберите карты, которые выложить с верхней картой стопки.",
                "Select the cards to meld with the pile's top card.",
            )
        reasons.setdefault(
            "meld", text("Выберите карты, которые выложить.", "Select the cards to meld.")
        )
        reasons.setdefault(
            "discard",
            text("Выберите одну карту, чтобы её сбросить.", "Select one card to discard."),
        )
        if self.opening is not None:
            reasons["discard"] = f"{reasons['discard']} {self.opening_way_out}"
        return reasons

    @cached_property
    def opening_way_out(self) -> str:
        """The ways on from melds below the opening minimum: meld more, or take them back."""
        opening = self.opening
        if opening is None:
            return ""
        more = opening.minimum - opening.points
        if self.can["undo"]:
            return text(
                f"Выложите ещё хотя бы {more} очков или нажмите «Вернуть как было».",
                f"Meld at least {more} more points, or press “Undo”.",
            )
        return text(f"Выложите ещё хотя бы {more} очков.", f"Meld at least {more} more points.")

    @cached_property
    def break_until(self) -> datetime | None:
        """A live game's break between deals: when the next deal's clock starts at the latest
        (whether or not the viewer has closed the score)."""
        until = self.game.deal_break_until
        return until if until is not None and until > self.now else None

    @cached_property
    def autoplayed_offer(self) -> bool:
        """The ways on after a live turn ran out (the rest by correspondence, a bot in the seat)
        go with the player's first live timeout in the game only, while its note is shown."""
        game = self.game
        return (
            game.mode == Game.Mode.LIVE
            and game.status == Game.Status.ACTIVE
            and any(turn.offer for turn in self.autoplayed)
        )

    @cached_property
    def notes_key(self) -> str:
        """What the table tells between turns, as one word: the page keeps the notes folded
        («Понятно») while it is the same, and unfolds them when something new comes."""
        parts = []
        if self.deal_summary is not None:
            parts.append(f"deal{self.deal_summary.number}")
        if self.break_wait is not None:
            parts.append(f"wait{self.break_wait.number}")
        if self.autoplayed:
            parts.append(f"auto{self.autoplayed[-1].seq}")
        if self.pace is not None:
            parts.append(f"pace-{self.pace['mode']}")
        return "-".join(parts)

    @cached_property
    def game_name(self) -> str:
        return game_name(self.detail["rules"])

    @cached_property
    def people(self) -> list[SeatPlace]:
        """The seats of people (not bots), in the order of play from the viewer."""
        return [
            place
            for place in self.places
            if place.player is not None and not place.player["user"]["is_bot"]
        ]

    @cached_property
    def alone_with_bots(self) -> bool:
        """The viewer is the only person at the table: its bots' level and its pace are theirs
        to change at once."""
        return self.seat is not None and [place.seat for place in self.people] == [self.seat.seat]

    @cached_property
    def pace(self) -> dict[str, Any] | None:
        """The pace the table is asked to play at, who agreed and whether the viewer may."""
        game = self.game
        if not game.pace_wanted or game.status != Game.Status.ACTIVE:
            return None
        votes = set(game.pace_votes)
        return {
            "mode": game.pace_wanted,
            "agreed": [place.player for place in self.people if place.seat in votes],
            "people": len(self.people),
            "may_agree": self.seat is not None and self.seat.seat not in votes,
        }

    @cached_property
    def hand_by_suit(self) -> str:
        """The viewer's hand sorted by suit (♠ ♥ ♣ ♦, each from the ace down, wild cards last)
        for «По масти» (the engine's own order is by rank)."""
        hand = self.deal.get("hand", []) if self.deal is not None else []
        return " ".join(sorted(hand, key=_suit_order))

    @cached_property
    def result(self) -> GameResult | None:
        """The finished game for the viewer: their outcome and every side's final score."""
        game = self.game
        if not game.is_over or not self.teams:
            return None
        winner = game.winner_team
        sides = [
            {
                "team": team.team,
                "ours": team.ours,
                "players": team.players,
                "score": team.score,
                "won": winner == team.team,
            }
            for team in sorted(self.teams, key=lambda team: -team.score)
        ]
        ours = next((team for team in self.teams if team.ours), None)
        if ours is None:
            outcome = "over"
        elif winner is None:
            # A draw, or at three sides the others level ahead: a draw only for those level.
            best = max(team.score for team in self.teams)
            outcome = "draw" if ours.score == best else "lost"
        else:
            outcome = "won" if winner == ours.team else "lost"
        return GameResult(outcome=outcome, sides=sides)

    @cached_property
    def final_deal(self) -> DealSummary | None:
        """The finished game's last deal, every side's score (in the result panel)."""
        if not self.game.is_over:
            return None
        return _final_deal(detail=self.detail, seating=self.seating, teams=self.teams)

    @cached_property
    def bot_level(self) -> str:
        """The level the table's bots play at (the first bot's), for the table's settings."""
        return next(
            (
                place.player["user"]["bot_level"]
                for place in self.places
                if place.player is not None and place.player["user"]["is_bot"]
            ),
            "",
        )

    @cached_property
    def deadline_shown(self) -> bool:
        """A correspondence turn's deadline is said as a local day and time besides its
        countdown (a live turn's 30 s need no date)."""
        return self.game.mode == Game.Mode.ASYNC and self.game.turn_deadline is not None

    @cached_property
    def alone(self) -> bool:
        """Each plays for themselves (two or three players): no partners, a team per seat."""
        return self.seating.players == len(self.seating.teams)

    @cached_property
    def winners(self) -> TeamArea | None:
        return next((team for team in self.teams if team.team == self.game.winner_team), None)

    @cached_property
    def team_players(self) -> list[Sequence[Mapping[str, Any]]]:
        """Each team's players, by team number (the score table's columns, names as links)."""
        return [area.players for area in sorted(self.teams, key=lambda area: area.team)]

    @cached_property
    def deal(self) -> DealView | None:
        return self.detail["deal"]

    @cached_property
    def your_turn(self) -> bool:
        return bool(self.detail["your_turn"]) and self.game.status == Game.Status.ACTIVE

    @cached_property
    def bot_to_move(self) -> bool:
        """A bot's turn: it moves after a short pause, so the page shows no clock running out."""
        turn = next((place for place in self.places if place.is_turn), None)
        return turn is not None and turn.player is not None and turn.player["user"]["is_bot"]

    @cached_property
    def stopped_clock(self) -> StoppedClock | None:
        """The turn's clock stands still: every clock of a paused game, or the clock of a player
        to move who is away; the deadline the selectors give already lies beyond it."""
        if self.game.status != Game.Status.ACTIVE:
            return None
        if self.detail["paused_until"]:
            return StoppedClock(reason="pause", until=self.detail["paused_until"])
        turn = next((place for place in self.places if place.is_turn), None)
        if turn is None or turn.player is None or not turn.player["away_until"]:
            return None
        return StoppedClock(reason=turn.player["away_reason"], until=turn.player["away_until"])

    def _placed(self, place: str) -> list[SeatPlace]:
        return [seat for seat in self.places if seat.place == place]

    @cached_property
    def me(self) -> SeatPlace:
        return self.places[0]

    @cached_property
    def left(self) -> SeatPlace | None:
        return next(iter(self._placed("left")), None)

    @cached_property
    def across(self) -> list[SeatPlace]:
        return self._placed("across")

    @cached_property
    def right(self) -> SeatPlace | None:
        return next(iter(self._placed("right")), None)

    @cached_property
    def frozen_reason(self) -> str:
        """Why the pile is frozen for the viewer, if it is (R-FRZ-1/2)."""
        deal = self.deal
        if deal is None:
            return ""
        if deal["pile"]["frozen"]:
            return text(
                "Заморожена: внутри дикая карта или красная тройка.",
                "Frozen: a wild card or a red three is inside.",
            )
        ours = next((team for team in self.teams if team.ours), None)
        if ours is not None and not ours.opened:
            return text(
                "Заморожена для вас: ваша команда ещё не выложила первую комбинацию.",
                "Frozen for you: your team has not opened yet.",
            )
        return ""

    @cached_property
    def rules(self) -> dict[str, Any]:
        return dict(self.detail["rules"])

    @cached_property
    def question(self) -> dict[str, Any] | None:
        """The turn's «можно выходить?» (R-HOUSE-ASK) with the names and the viewer's part in
        it ("asker", "partner" or "") and its state ("pending", "yes", "no")."""
        deal = self.deal
        question = deal.get("question") if deal else None
        if not question:
            return None
        players = {place.seat: place.player for place in self.places}
        viewer = self.seat.seat if self.seat is not None else None
        answer = question["answer"]
        return {
            **question,
            "asker_name": player_name(players.get(question["asker"])),
            "partner_name": player_name(players.get(question["partner"])),
            "you": "asker"
            if viewer == question["asker"]
            else "partner"
            if viewer == question["partner"]
            else "",
            "state": "pending" if answer is None else "yes" if answer else "no",
        }

    @cached_property
    def laying_down(self) -> SeatPlace | None:
        """R-HOUSE-DOUBLE: the partner who lays down or passes now (phase `partner_out`)."""
        deal = self.deal
        if deal is None or deal["phase"] != "partner_out":
            return None
        return next(place for place in self.places if place.seat == deal["to_act"])


_SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}


def _suit_order(code: str) -> tuple[int, int, int]:
    if code in WILDS:
        return (1, 0, 0)
    return (0, _SUIT_ORDER[code[1]], _RANK_ORDER.get(code[0], 99))


def _deal_summary(
    *,
    game: Game,
    detail: GameDetail,
    seat: Seat | None,
    seating: Seating,
    teams: list[TeamArea],
    places: list[SeatPlace],
    now: datetime,
) -> DealSummary | DealBreakWait | None:
    """The last finished deal's score, while the game goes on and the viewer (a person seated
    there) has not closed it; a spectator sees it during a live game's break. A viewer who
    closed it during the break is told who of the others still reads it (DealBreakWait)."""
    history = detail["deals"]
    last_deal = detail["last_deal"]
    if game.status != Game.Status.ACTIVE or not history or last_deal is None:
        return None
    finished = history[-1]
    breaking = game.deal_break_until is not None and game.deal_break_until > now
    # Who still reads: the people besides the viewer (who knows whether they do).
    reading = [
        place.player
        for place in places
        if breaking
        and place.player is not None
        and not place.player["user"]["is_bot"]
        and place.deal_seen < finished["number"]
        and (seat is None or place.seat != seat.seat)
    ]
    if seat is None:
        if not breaking:
            return None
    elif seat.deal_seen >= finished["number"]:
        if not reading or game.deal_break_until is None:
            return None
        return DealBreakWait(
            number=finished["number"], until=game.deal_break_until, reading=reading
        )
    return DealSummary(
        number=finished["number"],
        sides=_sides_of(last_deal, finished, seating=seating, teams=teams),
        break_until=game.deal_break_until if breaking else None,
        reading=reading,
    )


def _final_deal(
    *, detail: GameDetail, seating: Seating, teams: list[TeamArea]
) -> DealSummary | None:
    """A finished game's last deal played to its end: the deal on the table when the game
    ended there, else (a game abandoned in the middle of a deal) the deal before it."""
    history = detail["deals"]
    if not history:
        return None
    finished = history[-1]
    deal = detail["deal"]
    if deal is None or deal["result"] is None:
        deal = detail["last_deal"]
    if deal is None:
        return None
    return DealSummary(
        number=finished["number"], sides=_sides_of(deal, finished, seating=seating, teams=teams)
    )


def _sides_of(
    deal: Mapping[str, Any],
    finished: Mapping[str, Any],
    *,
    seating: Seating,
    teams: list[TeamArea],
) -> list[SideSummary]:
    """Every side's part of the finished deal `finished` (its history entry), as `deal` (its
    view at the end) showed it; the viewer's side first."""
    hand_counts = deal["hand_counts"]
    areas = {team.team: team for team in teams}
    sides = []
    for index, line in enumerate(finished["result"]):
        melds = deal["teams"][index]["melds"]
        area = areas.get(index)
        sides.append(
            SideSummary(
                team=index,
                ours=area is not None and area.ours,
                players=area.players if area is not None else [],
                melds=[_meld_area(meld, number) for number, meld in enumerate(melds)],
                line=line,
                canastas=sum(1 for meld in melds if meld.get("canasta")),
                red_threes=deal["teams"][index]["red_threes"],
                went_out=line["going_out"] > 0,
                cards_left=sum(hand_counts[member] for member in seating.teams[index]),
                score=finished["scores_after"][index],
            )
        )
    sides.sort(key=lambda side: not side.ours)
    return sides


def _seats_around(seating: Seating, viewer_seat: int) -> list[tuple[int, str, str]]:
    """Seats in the order of play from the viewer's (R-DEAL-1; the engine's seating): the next
    one sits on the left, the last one on the right, the others across; at two, across."""
    me, *others = seating.round_from(viewer_seat)
    if len(others) == 1:
        places = ["across"]
    else:
        places = ["left", *["across"] * (len(others) - 2), "right"]
    partners = seating.partners_of(viewer_seat)
    return [(me, "me", "me")] + [
        (seat, place, "partner" if seat in partners else "opponent")
        for seat, place in zip(others, places, strict=True)
    ]


def _meld_area(meld: Mapping[str, Any], index: int) -> dict[str, Any]:
    """A meld as the page draws it: its chip's face and name; `index` is its place in the view
    (Samba and Bolivia's `"meld": i`), `kind` and `suit` there say a sequence is drawn as a run."""
    rank = meld["rank"]
    return {
        **meld,
        "index": index,
        "face": meld_face(meld),
        "name": meld_name(rank=rank, kind=meld.get("kind", "group"), suit=meld.get("suit")),
        "count": len(meld["cards"]),
        "wilds": sum(1 for card in meld["cards"] if card in WILDS),
    }


def table_page(
    *,
    table: LoadedGame,
    viewer: User | AnonymousUser,
    invite_code: str = "",
    made: MoveResult | None = None,
) -> TablePage | None:
    """The table as `viewer` may see it (games.selectors.table_view), laid out around their
    seat; None when it is a private table hidden from the viewer. `made`: the viewer's move
    just made there (`table` is its table), whose parsed state and moves are not read again."""
    view = game_selectors.table_view(
        table=table,
        viewer=viewer,
        invite_code=invite_code,
        move_window=MOVE_WINDOW,
        match=made.match if made is not None else None,
        written=made.moves if made is not None else (),
    )
    if view is None:
        return None
    detail, seat, seating = view.detail, view.seat, view.seating
    game = table.game
    attach_standings([(game.pool, detail["players"])], now=table.now)
    players = {player["seat"]: player for player in detail["players"]}
    person = viewer if isinstance(viewer, User) else None
    said = [
        _said(phrase, players) for phrase in game_selectors.table_phrases(game=game, viewer=person)
    ]
    shown_now = {phrase.seat: phrase for phrase in said if phrase.until > table.now}
    invitations = [
        _invitation_shown(invitation, person)
        for invitation in game_selectors.pending_invitations(game=game)
    ]
    kept = {invitation.seat: invitation for invitation in invitations}
    deal = detail["deal"]
    viewer_seat = seat.seat if seat is not None else 0
    seats = {row.seat: row for row in table.seats}
    live = game.mode == Game.Mode.LIVE and game.status == Game.Status.ACTIVE
    places = [
        SeatPlace(
            seat=number,
            place=place,
            role=role,
            player=players.get(number),
            hand_count=deal["hand_counts"][number] if deal else None,
            is_turn=game.status == Game.Status.ACTIVE and game.turn_seat == number,
            away=live
            and number in seats
            and seats[number].is_absent
            and not seats[number].user.is_bot,
            away_at=absence_deadline(seats[number], table.now)
            if live and number in seats
            else None,
            said=shown_now.get(number),
            invitation=kept.get(number),
            deal_seen=seats[number].deal_seen if number in seats else 0,
        )
        for number, place, role in _seats_around(seating, viewer_seat)
    ]
    our_team = seating.team_of(viewer_seat) if seat is not None else None
    teams = []
    if deal is not None:
        for index, team in enumerate(deal["teams"]):
            melds = sorted(
                enumerate(team["melds"]), key=lambda item: _RANK_ORDER.get(item[1]["rank"], 99)
            )
            teams.append(
                TeamArea(
                    team=index,
                    ours=index == our_team,
                    names=[player_name(players.get(member)) for member in seating.teams[index]],
                    players=[
                        players[member] for member in seating.teams[index] if member in players
                    ],
                    score=detail["scores"][index],
                    opened=team["opened"],
                    minimum=team["minimum"],
                    red_threes=team["red_threes"],
                    melds=[_meld_area(meld, index) for index, meld in melds],
                )
            )
        # Ours first, as a player looks at the table.
        teams.sort(key=lambda area: not area.ours)
    legal = detail["legal_actions"]
    kinds = {action["type"] for action in legal}
    can = {kind: kind in kinds for kind in ("draw", "take_pile", "meld", "undo", "discard")}
    # «Взять стопку» with nothing selected takes it onto the team's meld of the top card's rank
    # (in Samba and Bolivia onto a meld the player names); other takes wait for the cards that
    # go with the top card.
    pile_melds = [
        action["meld"]
        for action in legal
        if action["type"] == "take_pile" and not action["cards"] and "meld" in action
    ]
    can["take_any"] = can["take_pile"]
    can["take_pile"] = PLAIN_TAKE in legal or bool(pile_melds)
    # The house rules' actions as the engine offers them: the page posts them as they are.
    house = {kind: [action for action in legal if action["type"] == kind] for kind in HOUSE_ACTIONS}
    turns = logged_turns(view.moves, players, seating, cut=view.moves_cut)
    place_said(turns, said)
    deal_summary = _deal_summary(
        game=game,
        detail=detail,
        seat=seat,
        seating=seating,
        teams=teams,
        places=places,
        now=table.now,
    )
    autoplayed = [
        AutoplayedTurn(
            reason=turn["reason"],
            phrases=club_played_for_you(turn["moves"]),
            offer=turn.get("offer", False),
            seq=turn["moves"][0]["seq"] if turn["moves"] else 0,
        )
        for turn in (seat.autoplayed if seat is not None else [])
    ]
    return TablePage(
        game=game,
        now=table.now,
        detail=detail,
        seat=seat,
        places=places,
        teams=teams,
        can=can,
        house=house,
        turns=turns[:RECENT_TURNS],
        seating=seating,
        free_seats=view.free_seats,
        may_seat_bots=view.may_seat_bots,
        invite_code=detail["invite_code"] or "",
        refused=view.refused,
        opening=view.opening,
        pile_melds=pile_melds,
        deal_summary=deal_summary if isinstance(deal_summary, DealSummary) else None,
        break_wait=deal_summary if isinstance(deal_summary, DealBreakWait) else None,
        autoplayed=autoplayed,
        said=said,
        phrases_muted=person is not None and person.phrases_muted,
        invitations=invitations,
        rematch_id=game_selectors.rematch_of(game=game) if game.is_over else None,
    )


def _said(phrase: TablePhrase, players: Mapping[int, Mapping[str, Any]]) -> SaidPhrase:
    player = players.get(phrase.seat)
    return SaidPhrase(
        seat=phrase.seat,
        who=player_name(player),
        player=player,
        key=phrase.phrase,
        text=phrase_text(phrase.phrase),
        at=phrase.said_at,
        until=phrase.said_at + SHOWN_FOR,
        version=phrase.version,
    )


def _invitation_shown(invitation: Invitation, viewer: User | None) -> InvitationShown:
    invitee = invitation.invitee
    return InvitationShown(
        pk=invitation.pk,
        seat=invitation.seat,
        player={
            "seat": invitation.seat,
            "user": {
                "id": invitee.pk,
                "username": invitee.username,
                "display_name": invitee.display_name,
                "is_bot": False,
                "bot_level": "",
            },
        },
        expires_at=invitation.expires_at,
        yours=viewer is not None and invitation.invitee_id == viewer.pk,
        sent_by_you=viewer is not None and invitation.invited_by_id == viewer.pk,
    )


def fragment_etag(
    *, table: LoadedGame, viewer: User | AnonymousUser, invite_code: str
) -> str | None:
    """The table fragment's ETag: it changes whenever what the viewer sees does. The game's
    version and state cover the moves; besides, who sits where, who is away (R-CLUB-2's
    presence, the wait for a dropped player, a correspondence player's time off), the agreed
    pause and its votes, the clock (a break between deals, a pace changed), who closed the
    deal's score, the turns played for a player, and the viewer's own language, time zone and
    confirmation. None (the
    body's hash, then) for a finished game, whose afterwords come and go, and for a hidden
    table."""
    game = table.game
    person = viewer if viewer.is_authenticated else None
    if game.is_over or not game_selectors.may_see(
        table=table,
        viewer=viewer,  # type: ignore[arg-type]  # an anonymous visitor sits nowhere
        invite_code=invite_code,
    ):
        return None
    now = table.now
    live = game.mode == Game.Mode.LIVE and game.status == Game.Status.ACTIVE
    correspondence = game.mode == Game.Mode.ASYNC
    seats = [
        (
            seat.seat,
            seat.user_id,
            seat.is_absent,
            absence_deadline(seat, now) if live else None,
            time_off.absence(seat.user, now) if correspondence else None,
            # Who has closed the last deal's score, and the turns played for a player.
            seat.deal_seen,
            len(seat.autoplayed),
        )
        for seat in table.seats
    ]
    # A wait's countdown is set by the moment the body was made (data-away-now): while a
    # dropped player is waited for, each poll has a body of its own.
    waiting = any(seat[3] is not None for seat in seats)
    kept = [
        (invitation.pk, invitation.seat, invitation.invitee_id)
        for invitation in game_selectors.pending_invitations(game=game)
    ]
    shown = (
        table.now if waiting else None,
        game.pk,
        game.version,
        # Said without a move: the phrases (what the viewer lets themselves see of them is below).
        game.phrases_said,
        kept,
        # Every write of the state comes with a new version; a test's stacked deal is the one
        # that does not, and the state's text costs little next to a render.
        json.dumps(game.state, separators=(",", ":")),
        game.status,
        game.mode,
        # The clock: a break between deals ended, a pace changed.
        game.turn_deadline,
        game.deal_break_until is not None and game.deal_break_until > now,
        game.pace_wanted,
        game.pace_votes,
        seats,
        time_off.pause_state_of(game, now),
        person and (person.pk, person.time_zone, person.confirm_discard, person.phrases_muted),
        current_language(),
    )
    return quote_etag(hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest())
