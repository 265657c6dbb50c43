"""Samba (R-SAMBA-*, games/engine/README.md): three packs, fifteen cards, two-card draws,
sequences of one suit beside groups, several melds of a rank, two canastas to go out.

A side's melds are keyed by their kind and place (`sequences.py`); `melds.py` checks entries
addressed by index, `pile.py` the top card of a take, `moves.py` is the move generator's part
and `scoring.py` the values. Bolivia (`variants/bolivia.py`) is Samba with its changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import VALUE
from ...errors import IllegalMove
from ...melds import lay
from ...opening import club_minimum
from ...state import DealState
from ...variant import Resolved, Variant
from .melds import check_sequence_entries, sequence_meld_events
from .moves import legal_melds, pile_takes
from .pile import top_card_meld
from .scoring import GOING_OUT_BONUS, canasta_bonus, team_red_threes
from .sequences import canasta_count, meld_view, view_key

if TYPE_CHECKING:
    from ...rules import Rules

# The classic game's options and house rules, at their defaults: refused with these games.
_CLASSIC_ONLY: dict[str, object] = {
    "wild_limit": "strict",
    "stock_out": "club",
    "upcard_stops_on_black_three": False,
    "concealed_out_skips_minimum": False,
    "ask_partner_to_go_out": False,
    "canasta_opening_from_5000": False,
    "double_going_out": False,
    "acaba": False,
    "hand_of_twelve": False,
    "canasta_in_hand_opens": False,
    "minimums_7000": False,
    "red_threes": "club",
}


class Samba(Variant):
    name = "samba"
    target = 10_000  # R-SAMBA-GAME
    target_max = 15_000
    top_minimum = 160  # R-SAMBA-OPEN: from 7,000
    wild_melds = False  # R-BOL-WILD's melds of wild cards
    sequence_canasta = "samba"  # R-SAMBA-CAN (R-BOL-ESC: "escalera")
    sequence_to_go_out = False  # R-BOL-OUT: one of the two canastas a sequence
    # The Samba rules a refusal enforces where the club's rule it names by default is not
    # these games' rule (errors.RULE_OF_CODE).
    rule_ids: dict[str, str] = {
        "pile_frozen": "R-SAMBA-PILE",
        "cannot_take_pile": "R-SAMBA-PILE",
        "below_minimum": "R-SAMBA-OPEN",
        "minimum_unreachable": "R-SAMBA-UNDO",
        "no_canasta": "R-SAMBA-OUT",
        "meld_too_small": "R-SAMBA-GROUP",
        "mixed_ranks": "R-SAMBA-GROUP",
        "too_many_wilds": "R-SAMBA-GROUP",
        "wild_only": "R-SAMBA-GROUP",
    }
    hand_values: dict[str, int] = VALUE
    meld_event_says_went_out = False

    # ------------------------------------------------------------------ the table

    def default_target(self, players: int, teams: int) -> int:
        return self.target

    def default_canastas_to_go_out(self, players: int) -> int:
        return 2

    def validate(self, rules: Rules) -> None:
        """R-SAMBA-CARDS: a four-handed partnership game of its own."""
        if rules.players != 4:
            raise ValueError(f"{self.name} is played by four players in two partnerships")
        if rules.canastas_to_go_out != 2:
            raise ValueError(f"{self.name} needs two canastas to go out")
        classic_only = [
            name for name, default in _CLASSIC_ONLY.items() if getattr(rules, name) != default
        ]
        if classic_only:
            raise ValueError(f"{', '.join(classic_only)}: options of the classic game only")

    def packs(self, rules: Rules) -> int:
        return 3  # R-SAMBA-CARDS: 162 cards

    def hand_size(self, rules: Rules) -> int:
        return 15  # R-SAMBA-DEAL

    def cards_drawn(self, rules: Rules) -> int:
        return 2  # R-SAMBA-DRAW

    def opening_minimum(self, rules: Rules, team_score: int) -> int:
        """R-SAMBA-OPEN, R-BOL-OPEN: the club's minimums, then 160 (Bolivia 150) from 7,000."""
        return self.top_minimum if team_score >= 7000 else club_minimum(team_score)

    # ------------------------------------------------------------------ melds, the pile

    check_entries = check_sequence_entries

    def meld_size(self, sim: dict[str, Any], key: str) -> int:
        return len(sim[key])

    def enough_canastas(self, state: DealState, team: int, sim: dict[str, Any]) -> bool:
        """R-SAMBA-OUT: two canastas of any kind; R-BOL-OUT: one of them an escalera."""
        count, sequence = canasta_count(state, team, sim)
        return count >= 2 and (sequence or not self.sequence_to_go_out)

    def missing_canastas(self, state: DealState, code: str, why: str = "") -> IllegalMove:
        return IllegalMove(code, "escalera" if self.sequence_to_go_out else "two_canastas")

    def check_after_undo(
        self, state: DealState, team: int, hand_after: list[str], laid: Resolved, total: int
    ) -> None:
        """R-SAMBA-UNDO: after an undo, a side that has not opened melds its minimum in one go."""
        minimum = state.minimums[team]
        raise IllegalMove("minimum_unreachable", "after_undo", points=total, minimum=minimum)

    def lay_melds(
        self, state: DealState, team: int, resolved: Resolved, *, this_turn: bool = True
    ) -> list[dict[str, Any]]:
        lay(state, team, resolved, this_turn=this_turn)
        return sequence_meld_events(state, team, resolved)

    def meld_view(self, key: str, cards: list[str]) -> dict[str, Any]:
        return meld_view(key, cards, self.sequence_canasta)

    top_card_meld = staticmethod(top_card_meld)

    # ------------------------------------------------------------------ going out, scoring

    def going_out_bonus(self, state: DealState, out_seat: int) -> int:
        return GOING_OUT_BONUS

    def canasta_bonus(self, key: str, cards: list[str]) -> int:
        return canasta_bonus(key, cards, self.sequence_canasta)

    def red_three_points(self, state: DealState, team: int, out_seat: int | None) -> int:
        return team_red_threes(state, team)

    # ------------------------------------------------------------------ the move generator

    pile_takes = pile_takes
    legal_melds = legal_melds

    # ------------------------------------------------------------------ a deal from a view

    def view_keys(self, melds: list[dict[str, Any]]) -> list[str]:
        return [view_key(meld, index) for index, meld in enumerate(melds)]

    def event_key(self, meld: dict[str, Any]) -> str:
        """An event names the meld by its place, with its suit (a sequence) or rank."""
        first: str = meld["suit"] if "suit" in meld else meld["rank"]
        return f"{first}{meld['meld']}"


SAMBA = Samba()
