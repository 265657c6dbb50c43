"""What the table page shows, shaped from the games selectors (the same reads the REST API
makes): the seats around the viewer, the teams' melds, the buttons, the move log, the previews'
sentences, and a finished game's afterwords."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from canasta_club.i18n import current_language, quantity, russian_form, text
from games import presence
from games import selectors as game_selectors
from games.engine import Match
from games.engine.preview import (
    MOVES,
    Opening,
    Preview,
    Refusal,
    Selection,
    opening_progress,
)
from games.engine.seating import Seating
from games.models import Game, Seat
from moderation import selectors as moderation_selectors
from moderation.models import Afterword
from moderation.phrases import kudos_forecast, kudos_outcome
from web.shared import player_name

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
    turns: list["LoggedTurn"]  # the log, newest turn first
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

    @property
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

    @property
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

    @property
    def alone(self) -> bool:
        """Each plays for themselves (two or three players): no partners, a team per seat."""
        return self.seating.players == len(self.seating.teams)

    @property
    def winners(self) -> TeamArea | None:
        return next((team for team in self.teams if team.team == self.game.winner_team), None)

    @property
    def team_players(self) -> list[list[dict[str, Any]]]:
        """Each team's players, by team number (the score table's columns, names as links)."""
        return [area.players for area in sorted(self.teams, key=lambda area: area.team)]

    @property
    def deal(self) -> dict[str, Any] | None:
        return self.detail["deal"]

    @property
    def your_turn(self) -> bool:
        return bool(self.detail["your_turn"]) and self.game.status == Game.Status.ACTIVE

    @property
    def bot_to_move(self) -> bool:
        """A bot's turn: it moves after a short pause, so the page shows no clock running out."""
        turn = next((place for place in self.places if place.is_turn), None)
        return turn is not None and turn.player is not None and turn.player["user"]["is_bot"]

    @property
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

    @property
    def me(self) -> SeatPlace:
        return self.places[0]

    @property
    def left(self) -> SeatPlace | None:
        return next(iter(self._placed("left")), None)

    @property
    def across(self) -> list[SeatPlace]:
        return self._placed("across")

    @property
    def right(self) -> SeatPlace | None:
        return next(iter(self._placed("right")), None)

    @property
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

    @property
    def rules(self) -> dict[str, Any]:
        return dict(self.detail["rules"])

    @property
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

    @property
    def laying_down(self) -> SeatPlace | None:
        """R-HOUSE-DOUBLE: the partner who lays down or passes now (phase `partner_out`)."""
        deal = self.deal
        if deal is None or deal["phase"] != "partner_out":
            return None
        return next(place for place in self.places if place.seat == deal["to_act"])

    @property
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
        "face": _meld_face(meld),
        "name": _meld_name(rank=rank, kind=meld.get("kind", "group"), suit=meld.get("suit")),
        "count": len(meld["cards"]),
        "toward_canasta": min(len(meld["cards"]), CANASTA_LENGTH),
    }


def table_page(
    *, game_id: int, viewer: User | AnonymousUser, invite_code: str = ""
) -> TablePage | None:
    """The table as `viewer` may see it (their seat's view; a spectator's for anybody else);
    None when the game does not exist or is a private table hidden from the viewer."""
    table = game_selectors.game_with_seats(game_id=game_id)
    if table is None or not game_selectors.may_see(
        table=table,
        viewer=viewer,  # type: ignore[arg-type]  # an anonymous visitor sits nowhere
        invite_code=invite_code,
    ):
        return None
    game = table.game
    match = Match.from_dict(game.state) if game.state is not None else None
    detail = game_selectors.game_detail(table=table, viewer=viewer, match=match)  # type: ignore[arg-type]
    seat = table.seat_of(viewer) if viewer.is_authenticated else None
    players = {player["seat"]: player for player in detail["players"]}
    deal = detail["deal"]
    viewer_seat = seat.seat if seat is not None else 0
    seating = game_selectors.seating_of(game=game)
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
    refused: dict[str, Refusal] = {}
    opening = None
    if match is not None and seat is not None and game.status == Game.Status.ACTIVE:
        # Only the moves no selection could make need the engine's reason.
        possible = {**can, "take_pile": can["take_any"]}
        refused = game_selectors.move_refusals(
            match=match, seat=seat.seat, kinds=[kind for kind in MOVES if not possible[kind]]
        )
        opening = opening_progress(match.deal, seat.seat)
    # The house rules' actions as the engine offers them: the page posts them as they are.
    house = {
        kind: [action for action in detail["legal_actions"] if action["type"] == kind]
        for kind in HOUSE_ACTIONS
    }
    moves = game_selectors.move_log_for(
        game=game,
        viewer_seat=detail["your_seat"],
        after=max(game.version - MOVE_WINDOW, 0),
        limit=MOVE_WINDOW,
    )
    return TablePage(
        game=game,
        now=table.now,
        detail=detail,
        seat=seat,
        places=places,
        teams=teams,
        can=can,
        house=house,
        turns=_logged_turns(moves, players, seating, cut=game.version > MOVE_WINDOW)[:RECENT_TURNS],
        seating=seating,
        free_seats=game_selectors.empty_seats(table=table),
        may_seat_bots=viewer.is_authenticated
        and game_selectors.may_seat_bots(table=table, user=viewer),
        invite_code=detail["invite_code"] or "",
        refused=refused,
        opening=opening,
        pile_melds=pile_melds,
    )


@dataclass
class MovePhrase:
    """One thing a move did, as the log says it: words, and the cards it showed to everyone
    (`cards_first`: "2♣ к шестёркам", the cards before the words)."""

    what: str
    cards: list[str] = field(default_factory=list)
    cards_first: bool = False


@dataclass
class LoggedTurn:
    """A seat's consecutive moves in one deal, as one entry of the log; what the table shows
    of them (the melds that grew, the pile) is data for the page to highlight."""

    seat: int
    who: str
    player: dict[str, Any] | None  # the seat's player, for `{% person %}`
    team: int
    first_seq: int
    last_seq: int
    phrases: list[MovePhrase] = field(default_factory=list)
    automatic: bool = False
    went_out: bool = False
    melds: list[str] = field(default_factory=list)  # the ranks of the seat's team's melds touched
    pile: str = ""  # "took" | "discarded" | ""

    @property
    def meld_keys(self) -> str:
        """`team:rank` of each meld the turn touched (the table's `[data-meld][data-team]`)."""
        return " ".join(f"{self.team}:{rank}" for rank in self.melds)


def _logged_turns(
    moves: list[dict[str, Any]],
    players: dict[int, dict[str, Any]],
    seating: Seating,
    *,
    cut: bool,
) -> list[LoggedTurn]:
    """The moves (oldest first) grouped into turns, newest turn first; `cut`: earlier moves
    exist, so the oldest turn may have begun before them and is left out."""
    turns: list[LoggedTurn] = []
    deal = None
    for move in moves:
        seat = move["seat"]
        current = turns[-1] if turns else None
        if current is None or current.seat != seat or move["deal_number"] != deal:
            player = players.get(seat)
            current = LoggedTurn(
                seat=seat,
                who=player_name(player),
                player=player,
                team=seating.team_of(seat),
                first_seq=move["seq"],
                last_seq=move["seq"],
            )
            turns.append(current)
            deal = move["deal_number"]
        _log_move(current, move)
    if cut and len(turns) > 1:
        turns.pop(0)
    return turns[::-1]


def _log_move(turn: LoggedTurn, move: dict[str, Any]) -> None:
    """Adds a move's phrases to its turn; cards only where the move shows them to everyone."""
    action, public = move["action"], move["public"] or {}
    kind = action.get("type")
    turn.last_seq = move["seq"]
    turn.automatic = turn.automatic or move["automatic"]
    turn.went_out = turn.went_out or bool(public.get("went_out"))
    phrases = turn.phrases
    if kind == "draw":
        phrases.append(MovePhrase(text("взял(а) из колоды", "drew from the stock")))
        if public.get("red_threes"):
            phrases.append(
                MovePhrase(text("красная тройка:", "a red three:"), public["red_threes"])
            )
        if public.get("deal_over") and not public.get("stock_count"):
            phrases.append(MovePhrase(text("колода кончилась", "the stock ran out")))
    elif kind == "take_pile":
        count = int(public.get("count", 0))
        phrases.append(
            MovePhrase(
                text(
                    f"взял(а) стопку ({count} {russian_form(count, 'карта', 'карты', 'карт')}) с",
                    f"took the pile ({count} {'card' if count == 1 else 'cards'}) with",
                ),
                [public["top"]] if public.get("top") else [],
            )
        )
        turn.pile = "took"
    elif kind == "undo":
        phrases.append(MovePhrase(text("вернул(а) как было", "took the meld back (undo)")))
    elif kind == "ask_to_go_out":
        phrases.append(
            MovePhrase(text("спросил(а) партнёра: можно выходить?", "asked: may I go out?"))
        )
    elif kind == "answer_go_out":
        phrases.append(
            MovePhrase(
                text("ответил(а): да, выходи", "answered: yes, go out")
                if action.get("yes")
                else text("ответил(а): нет, не выходи", "answered: no, do not go out")
            )
        )
    elif kind == "lay_down":
        phrases.append(MovePhrase(text("выложил(а) все карты вслед за партнёром", "laid down too")))
    elif kind == "pass":
        phrases.append(MovePhrase(text("не стал(а) выкладываться", "passed (kept the cards)")))
    elif kind == "discard":
        phrases.append(MovePhrase(text("сбросил(а)", "discarded"), [action["card"]]))
        turn.pile = "discarded"
    for meld in public.get("melds", []):
        rank = meld.get("rank")
        if rank is None:  # Samba, Bolivia: a sequence's event names its suit, not a rank
            name = _meld_name(rank=None, kind="sequence", suit=meld["suit"])
            phrases.append(
                MovePhrase(
                    text(f"в {name}", f"to the {name}"), list(meld["cards"]), cards_first=True
                )
            )
            continue
        if rank not in turn.melds:
            turn.melds.append(rank)
        if meld.get("new"):
            phrases.append(
                MovePhrase(
                    text(
                        f"новая комбинация «{_rank_name(rank)}»:",
                        f"a new meld of {_rank_name(rank)}:",
                    ),
                    list(meld["cards"]),
                )
            )
        else:
            phrases.append(
                MovePhrase(
                    text(f"к {_rank_name_dative(rank)}", f"to the {_rank_name(rank)}"),
                    list(meld["cards"]),
                    cards_first=True,
                )
            )


def _rank_name_dative(rank: str) -> str:
    """«2♣ к шестёркам»: the Russian meld name after «к»."""
    names = {
        "A": "тузам",
        "K": "королям",
        "Q": "дамам",
        "J": "валетам",
        "T": "десяткам",
        "9": "девяткам",
        "8": "восьмёркам",
        "7": "семёркам",
        "6": "шестёркам",
        "5": "пятёркам",
        "4": "четвёркам",
        "3": "чёрным тройкам",
    }
    return names.get(rank, rank)


_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_NAMES = {"S": ("пик", "spades"), "H": ("червей", "hearts"), "D": ("бубён", "diamonds"),
               "C": ("треф", "clubs")}  # fmt: skip


# The canastas' marks in a preview: natural, mixed; Samba's samba (Bolivia's escalera), bolivia.
_CANASTA_MARKS = {"natural": " ★", "mixed": " ☆", "samba": " ♪", "escalera": " ♪", "bolivia": " ♦"}


def _meld_name(*, rank: str | None, kind: str, suit: str | None) -> str:
    """A meld's name: its rank's, a run of a suit (Samba, Bolivia), wild cards."""
    if kind == "sequence" and suit:
        ru, en = _SUIT_NAMES[suit]
        return text(f"последовательность {ru}", f"run of {en}")
    if rank == "*":
        return text("дикие карты", "wild cards")
    return _rank_name(rank or "")


def _meld_face(meld: dict[str, Any]) -> str:
    """A meld chip's face: its rank (10 for T), a run's suit, ★ for wild cards."""
    if meld.get("kind") == "sequence" and meld.get("suit"):
        return _SUIT_SYMBOLS[meld["suit"]]
    rank = meld["rank"]
    return {"T": "10", "*": "W"}.get(rank, rank)


def _rank_name(rank: str) -> str:
    names = {
        "A": ("тузы", "aces"),
        "K": ("короли", "kings"),
        "Q": ("дамы", "queens"),
        "J": ("валеты", "jacks"),
        "T": ("десятки", "tens"),
        "9": ("девятки", "nines"),
        "8": ("восьмёрки", "eights"),
        "7": ("семёрки", "sevens"),
        "6": ("шестёрки", "sixes"),
        "5": ("пятёрки", "fives"),
        "4": ("четвёрки", "fours"),
        "3": ("чёрные тройки", "black threes"),
    }
    ru, en = names.get(rank, (rank, rank))
    return text(ru, en)


_POINTS = (("очко", "очка", "очков"), ("point", "points"))


def preview_text(answer: Preview) -> str:
    """The engine's judgement as one sentence in the page's language."""
    if not answer.legal:
        return text("Нельзя: ", "Not allowed: ") + answer.reason(current_language())
    parts = []
    for meld in answer.melds:
        star = _CANASTA_MARKS.get(meld.canasta or "", "")
        name = _meld_name(rank=meld.rank, kind=meld.kind, suit=meld.suit)
        if meld.new:
            parts.append(
                text(
                    f"новая комбинация: {name}, {meld.count} из 7{star}",
                    f"new meld: {name}, {meld.count} of 7{star}",
                )
            )
        else:
            parts.append(
                text(
                    f"к комбинации «{name}»: {meld.count} из 7{star}",
                    f"joins the {name}: {meld.count} of 7{star}",
                )
            )
    if answer.minimum and answer.points:
        points = quantity(answer.points, *_POINTS)
        parts.append(
            text(
                f"{points} к минимуму {answer.minimum}",
                f"{points} toward the minimum of {answer.minimum}",
            )
        )
    if answer.deal_over:
        parts.append(text("раздача закончится", "the deal ends"))
    sentence = "; ".join(parts) or text("ход возможен", "the move is allowed")
    return text("Можно: ", "Allowed: ") + sentence


def discard_text(answer: Preview) -> str:
    if not answer.legal:
        return text("Сбросить нельзя: ", "You cannot discard it: ") + answer.reason(
            current_language()
        )
    if answer.deal_over:
        return text("Можно сбросить: раздача закончится.", "You may discard it: the deal ends.")
    return text("Эту карту можно сбросить.", "You may discard this card.")


def selection_answer(selection: Selection, cards: list[str]) -> dict[str, Any]:
    """The page's answer to a selection: each move's verdict and a sentence for the player
    (the engine's judgement; for one card that may join a meld, where to tap)."""
    moves: dict[str, dict[str, Any]] = {
        kind: {
            "legal": answer.legal,
            "message": discard_text(answer) if kind == "discard" else preview_text(answer),
        }
        for kind, answer in selection.moves.items()
    }
    lines: list[str] = []
    primary = moves.get("take_pile") or moves.get("meld")
    if primary is not None and primary["legal"]:
        lines.append(primary["message"])
    elif selection.targets:
        names = ", ".join(f"«{_rank_name(rank)}»" for rank in selection.targets)
        lines.append(
            text(
                f"Нажмите на комбинацию ({names}), чтобы добавить к ней эту карту.",
                f"Tap the meld ({names}) to add this card to it.",
            )
        )
    elif primary is not None and "discard" not in moves:
        lines.append(primary["message"])
    # Below the opening minimum the page already shows the progress and the ways on.
    if "discard" in moves and selection.moves["discard"].code != "below_minimum":
        lines.append(moves["discard"]["message"])
    return {
        "legal": any(move["legal"] for move in moves.values()) or bool(selection.targets),
        "message": " ".join(lines),
        "moves": moves,
        "targets": list(selection.targets),
        "cards": cards,
    }


@dataclass(frozen=True)
class AfterwordsPanel:
    """A finished game's afterwords as one of its players may see them, and what they may
    still write (the service decides the rest, e.g. a mute, when they send it)."""

    messages: list[dict[str, Any]]
    phrases: list[str]
    # The viewer's partners who can receive warm words (people: bots receive none); none at a
    # table where each played alone.
    partners: list[User]
    # A partner was a bot: the form says so instead of offering "to your partner".
    bot_partner: bool
    # Said before sending: why warm words to a partner would not move their Authority
    # (moderation's kudos_weight, the reason the service will record), one line per partner.
    kudos_notes: list[str]
    may_write_partner: bool
    may_write_table: bool


def afterwords_panel(*, game: Game, viewer: User) -> AfterwordsPanel | None:
    if not viewer.is_authenticated or not game.is_over:
        return None
    partners = game_selectors.partners_at(game=game, user=viewer)
    if partners is None:
        return None  # afterwords are for the game's players
    afterwords = list(
        moderation_selectors.afterwords_visible_to(game_id=game.pk, viewer=viewer).select_related(
            "authority_change"
        )
    )
    written = {afterword.to for afterword in afterwords if afterword.author_id == viewer.pk}
    people = [partner for partner in partners if not partner.is_bot]
    may_write_partner = bool(people) and Afterword.To.PARTNER not in written
    kudos_notes = []
    if may_write_partner:
        reasons = moderation_selectors.kudos_forecast(
            game=game, giver=viewer, partner_ids=[partner.pk for partner in people]
        )
        # The giver's own reasons (a new account, a game with bots) are the same for each
        # partner: said once; a pair's limit names its partner.
        named = len(set(reasons.values())) > 1
        for partner in people:
            note = kudos_forecast(reasons[partner.pk])
            if note and note not in kudos_notes:
                kudos_notes.append(f"{partner}: {note}" if named else note)
    return AfterwordsPanel(
        messages=[
            {
                "afterword": afterword,
                # The giver sees whether their kudos counted, and why not (as the API says).
                "kudos": (
                    kudos_outcome(afterword.authority_change.reason)
                    if afterword.to == Afterword.To.PARTNER
                    and afterword.author_id == viewer.pk
                    and hasattr(afterword, "authority_change")
                    else ""
                ),
            }
            for afterword in afterwords
        ],
        phrases=[
            phrase["en"] if current_language() == "en" else phrase["ru"]
            for phrase in moderation_selectors.warm_phrases()
        ],
        partners=people,
        bot_partner=len(people) < len(partners),
        kudos_notes=kudos_notes,
        may_write_partner=may_write_partner,
        may_write_table=Afterword.To.TABLE not in written,
    )
