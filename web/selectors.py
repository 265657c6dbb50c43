"""What the pages show, shaped from the games selectors (the same reads the REST API makes)."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from canasta_club.i18n import current_language, text
from games import selectors as game_selectors
from games.engine.preview import MeldChange, Preview
from games.engine.seating import Seating
from games.models import Game, Seat

# Meld ranks in the order the table shows them (high to low, black threes last).
_RANK_ORDER = {rank: index for index, rank in enumerate("AKQJT9876543")}
RECENT_MOVES = 8
# The house rules' actions (R-HOUSE-ASK, R-HOUSE-DOUBLE): buttons that post the engine's own.
HOUSE_ACTIONS = ("ask_to_go_out", "answer_go_out", "lay_down", "pass")
CANASTA_LENGTH = 7


# What the pages call each table the engine seats (players, teams), the club's game first.
TABLE_NAMES = {
    (4, 2): ("4: две пары (клуб)", "4: two pairs (club)"),
    (2, 2): ("2: каждый за себя", "2: each for themselves"),
    (3, 3): ("3: каждый за себя", "3: each for themselves"),
    (6, 3): ("6: три пары", "6: three pairs"),
    (6, 2): ("6: две команды по трое", "6: two teams of three"),
}


def table_name(players: int, teams: int) -> str:
    return text(*TABLE_NAMES[players, teams])


@dataclass
class LobbyRow:
    game: Game
    summary: dict[str, Any]

    @property
    def seats(self) -> int:
        """The table's size (`rules.players`)."""
        return int(self.summary["rules"]["players"])

    @property
    def free_seats(self) -> int:
        return self.seats - len(self.summary["players"])

    @property
    def table_name(self) -> str:
        rules = self.summary["rules"]
        return table_name(rules["players"], rules["teams"])


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
    """A seat as placed around the viewer, in the order of play: the next seat on the left,
    the last one on the right, the others across the table (partners, at four, opposite)."""

    seat: int
    place: str  # "me" | "left" | "across" | "right"
    role: str  # "me" | "partner" | "opponent"
    player: dict[str, Any] | None
    hand_count: int | None
    is_turn: bool


@dataclass
class TeamArea:
    team: int
    ours: bool
    names: list[str]  # the team's players, in seat order
    score: int
    opened: bool
    minimum: int
    red_threes: list[str]
    melds: list[dict[str, Any]]

    @property
    def label(self) -> str:
        return ", ".join(self.names)


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
    moves: list[dict[str, Any]]
    seating: Seating
    # Seats nobody sits at: free before the start, or abandoned in a game waiting for a bot.
    free_seats: list[int] = field(default_factory=list)
    may_seat_bots: bool = False
    invite_code: str = ""

    @property
    def alone(self) -> bool:
        """Each plays for themselves (two or three players): no partners, a team per seat."""
        return self.seating.players == len(self.seating.teams)

    @property
    def winners(self) -> TeamArea | None:
        return next((team for team in self.teams if team.team == self.game.winner_team), None)

    @property
    def team_names(self) -> list[str]:
        """Each team's name, by team number (the score table's columns)."""
        return [area.label for area in sorted(self.teams, key=lambda area: area.team)]

    @property
    def deal(self) -> dict[str, Any] | None:
        return self.detail["deal"]

    @property
    def your_turn(self) -> bool:
        return bool(self.detail["your_turn"]) and self.game.status == Game.Status.ACTIVE

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
            "asker_name": _player_name(players.get(question["asker"])),
            "partner_name": _player_name(players.get(question["partner"])),
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
    """A meld as the page draws it; `index` is its place in the view (Samba and Bolivia's
    `"meld": i`), `kind` and `suit` there say a sequence is drawn as a run."""
    return {
        **meld,
        "index": index,
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
    seating = game_selectors.seating_of(game=game)
    places = [
        SeatPlace(
            seat=number,
            place=place,
            role=role,
            player=players.get(number),
            hand_count=deal["hand_counts"][number] if deal else None,
            is_turn=game.status == Game.Status.ACTIVE and game.turn_seat == number,
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
                    names=[_name(players, member) for member in seating.teams[index]],
                    score=detail["scores"][index],
                    opened=team["opened"],
                    minimum=team["minimum"],
                    red_threes=team["red_threes"],
                    melds=[_meld_area(meld, index) for index, meld in melds],
                )
            )
        # Ours first, as a player looks at the table.
        teams.sort(key=lambda area: not area.ours)
    kinds = {action["type"] for action in detail["legal_actions"]}
    can = {kind: kind in kinds for kind in ("draw", "take_pile", "meld", "undo", "discard")}
    # The house rules' actions as the engine offers them: the page posts them as they are.
    house = {
        kind: [action for action in detail["legal_actions"] if action["type"] == kind]
        for kind in HOUSE_ACTIONS
    }
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
        house=house,
        moves=[_move_line(move, players) for move in reversed(moves)],
        seating=seating,
        free_seats=game_selectors.empty_seats(table=table),
        may_seat_bots=viewer.is_authenticated
        and game_selectors.may_seat_bots(table=table, user=viewer),
        invite_code=detail["invite_code"] or "",
    )


def _player_name(player: dict[str, Any] | None) -> str:
    if player is None:
        return "?"
    return str(player["user"]["display_name"] or player["user"]["username"])


def _name(players: dict[int, dict[str, Any]], seat: int) -> str:
    return _player_name(players.get(seat))


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
    elif kind == "ask_to_go_out":
        what = text("спросил(а) партнёра: можно выходить?", "asked the partner: may I go out?")
    elif kind == "answer_go_out":
        what = (
            text("ответил(а): да, выходи", "answered: yes, go out")
            if action.get("yes")
            else text("ответил(а): нет, не выходи", "answered: no, do not go out")
        )
    elif kind == "lay_down":
        what = text("выложил(а) все карты вслед за партнёром", "laid down every card too")
        cards = [card for meld in action.get("melds", []) for card in meld.get("cards", [])]
    elif kind == "pass":
        what = text("не стал(а) выкладываться", "passed (kept the cards)")
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


_SUIT_NAMES = {"S": ("пик", "spades"), "H": ("червей", "hearts"), "D": ("бубён", "diamonds"),
               "C": ("треф", "clubs")}  # fmt: skip


# The canastas' marks in a preview: natural, mixed; Samba's samba (Bolivia's escalera), bolivia.
_CANASTA_MARKS = {"natural": " ★", "mixed": " ☆", "samba": " ♪", "escalera": " ♪", "bolivia": " ♦"}


def _meld_name(meld: MeldChange) -> str:
    """A meld of a preview: its rank's name, a run of a suit (Samba, Bolivia), wild cards."""
    if meld.kind == "sequence" and meld.suit:
        ru, en = _SUIT_NAMES[meld.suit]
        return text(f"последовательность {ru}", f"run of {en}")
    if meld.rank == "*":
        return text("дикие карты", "wild cards")
    return _rank_name(meld.rank or "")


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
        star = _CANASTA_MARKS.get(meld.canasta or "", "")
        if meld.new:
            parts.append(
                text(
                    f"новая комбинация: {_meld_name(meld)}, {meld.count} из 7{star}",
                    f"new meld: {_meld_name(meld)}, {meld.count} of 7{star}",
                )
            )
        else:
            parts.append(
                text(
                    f"к комбинации «{_meld_name(meld)}»: {meld.count} из 7{star}",
                    f"joins the {_meld_name(meld)}: {meld.count} of 7{star}",
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
