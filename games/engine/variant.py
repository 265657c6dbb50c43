"""The `Variant` protocol: one game of Canasta as one object (as scalachess gives each chess
variant one), owning what differs between the games — the table it is played at, its meld
kinds and canastas, taking the pile, the opening after an undo, going out, scoring, the melds
and takes its move generator offers — while the rest of the engine (the turn, the draw, the
discard, undo, the house rules, the deal's state and its API) is the same for every game and
asks `state.variant`.

The games are in `variants/` (`VARIANTS`, by `Rules.game`); adding a game is adding one.
A team's melds are `state.melds[team]`, a dict from a key the game chooses (the classic game:
the rank; Samba: the kind and the place, sequences.py) to the meld's cards, in the order the
view lists them. `sim` is the game's own record of the melds an action is checked against
(`check_entries` fills it; `enough_canastas` and `meld_size` read it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .actions import Action, Entry
    from .deal import Deal
    from .errors import IllegalMove
    from .rules import Rules
    from .state import DealState

# Meld entries checked against a side's melds: (the key of the meld each goes to, its cards).
Resolved = list[tuple[str, list[str]]]
# How a hand goes out: the meld entries, then the card to discard or None.
GoingOut = tuple[list[dict[str, Any]], str | None]
# A side's melds: the key the game gives each, to its cards.
Melds = dict[str, list[str]]


class Variant(Protocol):
    """One game: the club's classic Canasta, Samba, Bolivia."""

    name: str  # Rules.game
    target_max: int  # the longest game a table may choose (Rules.target)
    # The rule a refusal code enforces in this game where it is not the club's (RULES.md)
    # rule: the rules page's anchor the refusal links to.
    rule_ids: dict[str, str]
    # What a card left in a hand costs at the end of a deal (R-SCORE-1).
    hand_values: dict[str, int]
    # Whether a meld's event says `went_out` (Samba's never did: the stored logs keep it so).
    meld_event_says_went_out: bool

    # ------------------------------------------------------------------ the table (Rules)

    def default_target(self, players: int, teams: int) -> int:
        """The game's length at a table of `players` in `teams` (R-GAME-1)."""
        ...

    def default_canastas_to_go_out(self, players: int) -> int: ...

    def validate(self, rules: Rules) -> None:
        """Raises ValueError for options or tables the game is not played with."""
        ...

    def packs(self, rules: Rules) -> int: ...

    def hand_size(self, rules: Rules) -> int: ...

    def cards_drawn(self, rules: Rules) -> int:
        """Cards a stock draw takes."""
        ...

    def opening_minimum(self, rules: Rules, team_score: int) -> int:
        """A side's first meld's minimum from its total at the start of the deal."""
        ...

    # ------------------------------------------------------------------ melds

    def check_entries(
        self, state: DealState, team: int, entries: list[Entry], sim: dict[str, Any]
    ) -> tuple[Resolved, int, bool]:
        """Checks meld entries in order against the team's melds (the meld kinds); records the
        melds they make in `sim`; returns the entries with their melds' keys, the card points
        they add and whether black threes are among them."""
        ...

    def meld_size(self, sim: dict[str, Any], key: str) -> int:
        """The length of meld `key` after the checked entries (`sim`)."""
        ...

    def enough_canastas(self, state: DealState, team: int, sim: dict[str, Any]) -> bool:
        """The team has the canastas going out needs, on the table and after `sim`."""
        ...

    def missing_canastas(self, state: DealState, code: str, why: str = "") -> IllegalMove:
        """The refusal for want of the canastas going out needs (R-OUT-1/2, R-PILE-3), saying
        how many (`why`: the refusal's own, where one canasta is enough)."""
        ...

    def check_after_undo(
        self, state: DealState, team: int, hand_after: list[str], laid: Resolved, total: int
    ) -> None:
        """Refuses a meld below the minimum after an undo that the game does not allow
        (`hand_after`: the hand after it; `total`: the turn's points with it)."""
        ...

    def lay_melds(
        self, state: DealState, team: int, resolved: Resolved, *, this_turn: bool = True
    ) -> list[dict[str, Any]]:
        """Lays checked entries on the table (melds.lay); the melds of the action's event."""
        ...

    def meld_view(self, key: str, cards: list[str]) -> dict[str, Any]:
        """One meld as the view shows it (CONTRACT §2)."""
        ...

    def top_card_meld(
        self, state: DealState, team: int, top: str, cards: list[str], target: int | None
    ) -> Entry:
        """The entry of a pile take's top card with `cards` (the meld `target` it joins, or
        its own), or the refusal of the take (the freeze, the pair, R-PILE-4...)."""
        ...

    # ------------------------------------------------------------------ going out, scoring

    def going_out_bonus(self, state: DealState, out_seat: int) -> int: ...

    def canasta_bonus(self, key: str, cards: list[str]) -> int: ...

    def red_three_points(self, state: DealState, team: int, out_seat: int | None) -> int: ...

    def going_out_plan(
        self, rules: Rules, hand: list[str], melds: Melds, points: int
    ) -> GoingOut | None:
        """How `hand` goes out this turn on the team's `melds`, melding `points` or more, or
        None (the house rules ask: R-HOUSE-ASK). None in a game without such a search."""
        return None

    def lay_down_plan(
        self, rules: Rules, hand: list[str], melds: Melds
    ) -> list[dict[str, Any]] | None:
        """Meld entries that lay `hand` down whole on the team's `melds` (R-HOUSE-DOUBLE), or
        None. None in a game without such a search."""
        return None

    # ------------------------------------------------------------------ the move generator

    def pile_takes(self, deal: Deal, seat: int) -> list[Action]:
        """The legal takes of the pile the generator offers (the draw phase)."""
        ...

    def legal_melds(self, deal: Deal, seat: int) -> list[Action]:
        """The legal melds the generator offers (the play phase)."""
        ...

    # ------------------------------------------------------------------ a deal from a view

    def view_keys(self, melds: list[dict[str, Any]]) -> list[str]:
        """The keys of a team's melds as the view lists them (a deal rebuilt from a view)."""
        ...

    def event_key(self, meld: dict[str, Any]) -> str:
        """The key of the meld an event's entry went to."""
        ...
