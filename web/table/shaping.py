"""What the table page shows, shaped from the games selectors (the same reads the REST API
makes): the seats around the viewer, the teams' melds, the buttons, the move log, the previews'
sentences, and a finished game's afterwords."""

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.http import quote_etag

from accounts.models import User
from canasta_club.i18n import current_language, text
from games import presence, time_off
from games import selectors as game_selectors
from games.engine.preview import Opening, Refusal
from games.engine.seating import Seating
from games.models import Game, Seat
from games.store import LoadedGame
from web.shared import attach_standings, player_name
from web.table.move_log import LoggedTurn, logged_turns
from web.table.names import meld_face, meld_name

# Meld ranks in the order the table shows them (high to low, black threes last).
_RANK_ORDER = {rank: index for index, rank in enumerate("AKQJT9876543")}
# The log shows the last few turns, read from the last MOVE_WINDOW moves.
RECENT_TURNS = 3
MOVE_WINDOW = 12
# The house rules' actions (R-HOUSE-ASK, R-HOUSE-DOUBLE): buttons that post the engine's own.
HOUSE_ACTIONS = ("ask_to_go_out", "answer_go_out", "lay_down", "pass")
CANASTA_LENGTH = 7
PLAIN_TAKE = {"type": "take_pile", "cards": []}


@dataclass
class SeatPlace:
    """A seat as placed around the viewer, in the order of play: the next seat on the left,
    the last one on the right, the others across the table (partners, at four, opposite)."""

    seat: int
    place: str  # "me" | "left" | "across" | "right"
    role: str  # "me" | "partner" | "opponent"
    player: dict[str, Any] | None
    hand_count: int | None
    is_turn: bool
    # R-CLUB-2 in a live game: the player is away (their turns are played at once), or has
    # dropped and is waited for until `away_at`. Bots are never away.
    away: bool = False
    away_at: datetime | None = None


@dataclass
class TeamArea:
    team: int
    ours: bool
    names: list[str]  # the team's players, in seat order
    players: list[dict[str, Any]]  # the same players as the selectors shape them ({% person %})
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


@dataclass
class TablePage:
    game: Game
    now: datetime  # the club's clock when the table was read
    detail: dict[str, Any]
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
    refused: dict[str, Refusal] = field(default_factory=dict)
    # The turn's melds toward the opening minimum, while below it (the viewer's turn).
    opening: Opening | None = None
    # Samba, Bolivia: the indices of the side's melds the pile's top card may join alone
    # (R-SAMBA-PILE (b)), as the engine offers those takes.
    pile_melds: list[int] = field(default_factory=list)

    @cached_property
    def why(self) -> dict[str, str]:
        """Why each of the five buttons is disabled, in the page's language: the engine's
        refusal, or, for a move that waits for cards, which cards to select."""
        language = current_language()
        reasons = {kind: refusal.reason(language) for kind, refusal in self.refused.items()}
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
    def alone(self) -> bool:
        """Each plays for themselves (two or three players): no partners, a team per seat."""
        return self.seating.players == len(self.seating.teams)

    @cached_property
    def winners(self) -> TeamArea | None:
        return next((team for team in self.teams if team.team == self.game.winner_team), None)

    @cached_property
    def team_players(self) -> list[list[dict[str, Any]]]:
        """Each team's players, by team number (the score table's columns, names as links)."""
        return [area.players for area in sorted(self.teams, key=lambda area: area.team)]

    @cached_property
    def deal(self) -> dict[str, Any] | None:
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

    @cached_property
    def result_lines(self) -> list[dict[str, Any]] | None:
        deal = self.deal
        if deal is not None and deal["result"]:
            return list(deal["result"])
        return None


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


def _meld_area(meld: dict[str, Any], index: int) -> dict[str, Any]:
    """A meld as the page draws it: its chip's face and name; `index` is its place in the view
    (Samba and Bolivia's `"meld": i`), `kind` and `suit` there say a sequence is drawn as a run."""
    rank = meld["rank"]
    return {
        **meld,
        "index": index,
        "face": meld_face(meld),
        "name": meld_name(rank=rank, kind=meld.get("kind", "group"), suit=meld.get("suit")),
        "count": len(meld["cards"]),
        "toward_canasta": min(len(meld["cards"]), CANASTA_LENGTH),
    }


def table_page(
    *, table: LoadedGame, viewer: User | AnonymousUser, invite_code: str = ""
) -> TablePage | None:
    """The table as `viewer` may see it (games.selectors.table_view), laid out around their
    seat; None when it is a private table hidden from the viewer."""
    view = game_selectors.table_view(
        table=table, viewer=viewer, invite_code=invite_code, move_window=MOVE_WINDOW
    )
    if view is None:
        return None
    detail, seat, seating = view.detail, view.seat, view.seating
    game = table.game
    attach_standings([(game.pool, detail["players"])], now=table.now)
    players = {player["seat"]: player for player in detail["players"]}
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
            away_at=presence.absence_deadline(seats[number], table.now)
            if live and number in seats
            else None,
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
    )


def fragment_etag(
    *, table: LoadedGame, viewer: User | AnonymousUser, invite_code: str
) -> str | None:
    """The table fragment's ETag: it changes whenever what the viewer sees does. The game's
    version and state cover the moves; besides, who sits where, who is away (R-CLUB-2's
    presence, the wait for a dropped player, a correspondence player's time off), the agreed
    pause and its votes, and the viewer's own language, time zone and confirmation. None (the
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
            presence.absence_deadline(seat, now) if live else None,
            time_off.absence(seat.user, now) if correspondence else None,
        )
        for seat in table.seats
    ]
    # A wait's countdown is set by the moment the body was made (data-away-now): while a
    # dropped player is waited for, each poll has a body of its own.
    waiting = any(deadline is not None for _seat, _user, _absent, deadline, _off in seats)
    shown = (
        table.now if waiting else None,
        game.pk,
        game.version,
        # Every write of the state comes with a new version; a test's stacked deal is the one
        # that does not, and the state's text costs little next to a render.
        json.dumps(game.state, separators=(",", ":")),
        game.status,
        seats,
        time_off.pause_state_of(game, now),
        person and (person.pk, person.time_zone, person.confirm_discard),
        current_language(),
    )
    return quote_etag(hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest())
