"""The state of one deal: what the rule modules read and change, and nothing else.

The modules (dealing, turns, melds, opening, pile, going_out, scoring) are functions over this
object; `Deal` is this state with the contract's methods, so no rule module imports `Deal`.
What differs between the games they ask `variant`, the game's `Variant` (variants/).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import Rules
    from .variant import Variant

Event = dict[str, Any]


class DealState:
    """Hands, stock, pile, the teams' melds and red threes, whose turn it is, and the turn so far.

    Teams are numbered as `rules.seating.teams`; per-team lists are indexed by team, per-seat
    lists by seat.
    """

    __slots__ = (
        "asked",
        "asked_acaba",
        "base",
        "dealer",
        "drew",
        "frozen",
        "hands",
        "melded",
        "melds",
        "minimums",
        "opened",
        "opened_now",
        "out",
        "phase",
        "pile",
        "points",
        "question",
        "red",
        "result",
        "rules",
        "seating",
        "stock",
        "team_scores",
        "turn",
        "undo_used",
        "variant",
    )

    def __init__(self, rules: Rules, dealer: int, team_scores: tuple[int, ...]) -> None:
        """A deal about to be dealt: empty hands, stock and pile; dealer+1 moves first."""
        self.set_table(rules, dealer, team_scores)
        seating = self.seating
        self.hands: list[list[str]] = [[] for _ in seating.seats]
        self.stock: list[str] = []  # top card last
        self.pile: list[str] = []  # top card last
        self.frozen = False  # R-FRZ-1 (R-FRZ-2 follows from `opened`)
        self.red: list[list[str]] = [[] for _ in seating.teams]
        self.melds: list[dict[str, list[str]]] = [{} for _ in seating.teams]
        self.opened = [False] * len(seating.teams)
        self.melded = [False] * seating.players  # the seat melded in an earlier turn (R-OUT-3)
        self.turn = seating.next_seat(dealer)
        self.phase = "draw"  # "draw" | "play" | "partner_out" (R-HOUSE-DOUBLE) | "over"
        self.result: list[dict[str, int]] | None = None
        # House rules (house.py): the seats that asked their partner in this deal, the current
        # turn's question (R-HOUSE-ASK), and who went out while the partners lay down
        # (R-HOUSE-DOUBLE: {"seat", "bonus", "laid_down"}).
        self.asked = [False] * seating.players
        self.asked_acaba = [False] * seating.players  # R-ACABA-ASK
        self.question: dict[str, Any] | None = None
        self.out: dict[str, Any] | None = None
        # Turn-local state.
        self.drew: str | None = None  # "stock" | "pile"
        self.base: dict[str, int] = {}  # rank -> length of that meld before this turn
        self.points = 0  # card values melded this turn toward the minimum (R-OPEN-2)
        self.undo_used = False
        self.opened_now = False  # the team reached its minimum in this turn

    def set_table(self, rules: Rules, dealer: int, team_scores: tuple[int, ...]) -> None:
        """What the deal is played under: the rules, the dealer, the scores it starts from."""
        self.rules = rules
        self.variant: Variant = rules.variant
        self.seating = rules.seating
        self.dealer = dealer
        self.team_scores = team_scores
        self.minimums = [rules.opening_minimum(score) for score in team_scores]
