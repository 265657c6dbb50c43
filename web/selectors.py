"""What the pages show, shaped from the games selectors (the same reads the REST API makes)."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from canasta_club.i18n import current_language, text
from games import selectors as game_selectors
from games.engine import Rules
from games.engine.preview import Preview
from games.models import Game, Seat

# Meld ranks in the order the table shows them (high to low, black threes last).
_RANK_ORDER = {rank: index for index, rank in enumerate("AKQJT9876543")}
RECENT_MOVES = 8
CANASTA_LENGTH = 7


# Every table seats four, partners opposite (games.engine.seating).
SEATING = Rules().seating


@dataclass
class LobbyRow:
    game: Game
    summary: dict[str, Any]

    @property
    def free_seats(self) -> int:
        return SEATING.players - len(self.summary["players"])


def _lobby_row(game: Game, user: User) -> LobbyRow:
    return LobbyRow(
        game, game_selectors.game_summary(table=game_selectors.table_of(game), viewer=user)
    )


def lobby_sections(*, user: User) -> dict[str, list[LobbyRow]]:
    """Your turn first (nearest deadline first), then your other unfinished games, your tables
    waiting for players, and open tables to join."""
    active = [
        LobbyRow(
            game, game_selectors.game_summary(table=game_selectors.table_of(game), viewer=user)
        )
        for game in game_selectors.lobby(user=user, status=Game.Status.ACTIVE, mine=True)
    ]
    your_turn = sorted(
        (row for row in active if row.summary["your_turn"]),
        key=lambda row: row.game.turn_deadline or datetime.max.replace(tzinfo=None),
    )
    waiting = [
        LobbyRow(
            game, game_selectors.game_summary(table=game_selectors.table_of(game), viewer=user)
        )
        for game in game_selectors.lobby(user=user, status=Game.Status.WAITING, mine=False)[:100]
    ]
    return {
        "your_turn": your_turn,
        "other_games": [row for row in active if not row.summary["your_turn"]],
        "my_tables": [row for row in waiting if row.summary["your_seat"] is not None],
        "open_tables": [row for row in waiting if row.summary["your_seat"] is None],
    }


@dataclass
class SeatPlace:
    """A seat as placed around the viewer: partner opposite, opponents left and right."""

    seat: int
    place: str  # "me" | "left" | "partner" | "right"
    player: dict[str, Any] | None
    hand_count: int | None
    is_turn: bool


@dataclass
class TeamArea:
    team: int
    ours: bool
    score: int
    opened: bool
    minimum: int
    red_threes: list[str]
    melds: list[dict[str, Any]]


@dataclass
class TablePage:
    game: Game
    now: datetime  # the club's clock when the table was read
    detail: dict[str, Any]
    seat: Seat | None
    places: list[SeatPlace]
    teams: list[TeamArea]
    can: dict[str, bool]
    moves: list[dict[str, Any]]
    # Seats nobody sits at: free before the start, or abandoned in a game waiting for a bot.
    free_seats: list[int] = field(default_factory=list)
    may_seat_bots: bool = False
    invite_code: str = ""

    @property
    def deal(self) -> dict[str, Any] | None:
        return self.detail["deal"]

    @property
    def your_turn(self) -> bool:
        return bool(self.detail["your_turn"]) and self.game.status == Game.Status.ACTIVE

    @property
    def place(self) -> dict[str, SeatPlace]:
        return {place.place: place for place in self.places}

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
    def result_lines(self) -> list[dict[str, Any]] | None:
        deal = self.deal
        if deal is not None and deal["result"]:
            return list(deal["result"])
        return None


def _seats_around(viewer_seat: int) -> list[tuple[int, str]]:
    """Seats in the order of play from the viewer's: the next one sits on the left, the
    partner opposite (R-DEAL-1; the engine's seating)."""
    return list(
        zip(SEATING.round_from(viewer_seat), ("me", "left", "partner", "right"), strict=True)
    )


def _meld_area(meld: dict[str, Any]) -> dict[str, Any]:
    return {
        **meld,
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
    detail = game_selectors.game_detail(table=table, viewer=viewer)  # type: ignore[arg-type]
    seat = table.seat_of(viewer) if viewer.is_authenticated else None
    players = {player["seat"]: player for player in detail["players"]}
    deal = detail["deal"]
    viewer_seat = seat.seat if seat is not None else 0
    places = [
        SeatPlace(
            seat=number,
            place=place,
            player=players.get(number),
            hand_count=deal["hand_counts"][number] if deal else None,
            is_turn=game.status == Game.Status.ACTIVE and game.turn_seat == number,
        )
        for number, place in _seats_around(viewer_seat)
    ]
    our_team = players[viewer_seat]["team"] if seat is not None else None
    teams = []
    if deal is not None:
        for index, team in enumerate(deal["teams"]):
            melds = sorted(team["melds"], key=lambda meld: _RANK_ORDER.get(meld["rank"], 99))
            teams.append(
                TeamArea(
                    team=index,
                    ours=index == our_team,
                    score=detail["scores"][index],
                    opened=team["opened"],
                    minimum=team["minimum"],
                    red_threes=team["red_threes"],
                    melds=[_meld_area(meld) for meld in melds],
                )
            )
        # Ours first, as a player looks at the table.
        teams.sort(key=lambda area: not area.ours)
    kinds = {action["type"] for action in detail["legal_actions"]}
    can = {kind: kind in kinds for kind in ("draw", "take_pile", "meld", "undo", "discard")}
    moves = game_selectors.move_log_for(
        game=game, viewer_seat=detail["your_seat"], after=max(game.version - RECENT_MOVES, 0)
    )
    return TablePage(
        game=game,
        now=table.now,
        detail=detail,
        seat=seat,
        places=places,
        teams=teams,
        can=can,
        moves=[_move_line(move, players) for move in reversed(moves)],
        free_seats=game_selectors.empty_seats(table=table),
        may_seat_bots=viewer.is_authenticated
        and game_selectors.may_seat_bots(table=table, user=viewer),
        invite_code=detail["invite_code"] or "",
    )


def _name(players: dict[int, dict[str, Any]], seat: int) -> str:
    player = players.get(seat)
    if player is None:
        return "?"
    return str(player["user"]["display_name"] or player["user"]["username"])


def _move_line(move: dict[str, Any], players: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """A move of the log as a sentence; cards only where the move shows them to everyone."""
    action = move["action"]
    kind = action.get("type")
    cards: list[str] = []
    if kind == "draw":
        what = text("взял(а) из колоды", "drew from the stock")
    elif kind == "take_pile":
        what = text("взял(а) стопку", "took the pile")
        cards = list(action.get("cards", []))
    elif kind == "meld":
        what = text("выложил(а)", "melded")
        cards = [card for meld in action.get("melds", []) for card in meld.get("cards", [])]
    elif kind == "undo":
        what = text("вернул(а) как было", "took the meld back (undo)")
    else:
        what = text("сбросил(а)", "discarded")
        cards = [action["card"]] if "card" in action else []
    return {
        "seq": move["seq"],
        "who": _name(players, move["seat"]),
        "what": what,
        "cards": cards,
        "automatic": move["automatic"],
    }


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


def preview_text(answer: Preview) -> str:
    """The engine's judgement as one sentence in the page's language."""
    if not answer.legal:
        return text("Нельзя: ", "Not allowed: ") + answer.reason(current_language())
    parts = []
    for meld in answer.melds:
        star = {"natural": " ★", "mixed": " ☆"}.get(meld.canasta or "", "")
        if meld.new:
            parts.append(
                text(
                    f"новая комбинация: {_rank_name(meld.rank)}, {meld.count} из 7{star}",
                    f"new meld: {_rank_name(meld.rank)}, {meld.count} of 7{star}",
                )
            )
        else:
            parts.append(
                text(
                    f"к комбинации «{_rank_name(meld.rank)}»: {meld.count} из 7{star}",
                    f"joins the {_rank_name(meld.rank)}: {meld.count} of 7{star}",
                )
            )
    if answer.minimum and answer.points:
        parts.append(
            text(
                f"{answer.points} очков к минимуму {answer.minimum}",
                f"{answer.points} points toward the minimum of {answer.minimum}",
            )
        )
    if answer.deal_over:
        parts.append(text("раздача закончится", "the deal ends"))
    sentence = "; ".join(parts) or text("ход возможен", "the move is allowed")
    return text("Можно: ", "Allowed: ") + sentence
