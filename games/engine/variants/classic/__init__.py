"""The club's game: classic Canasta as RULES.md has it, with the seeds' variants of it as `Rules`
options, the tables of two, three and six, and the house rules.

A side has one meld of each rank, keyed by the rank (`melds.py`); the top card of a pile take
melds with cards of its rank (`pile.py`); a search over the hand plans openings and going out
(`search.py`, R-UNDO-3); `moves.py` is the move generator's part, `scoring.py` the values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import VALUE
from ...errors import IllegalMove
from ...melds import lay
from ...opening import club_minimum
from ...state import DealState
from ...variant import GoingOut, Melds, Resolved, Variant
from .melds import check_entries, check_minimum_reachable, enough_canastas, meld_events
from .moves import legal_melds, pile_takes
from .pile import top_card_meld
from .scoring import canasta_bonus, canasta_kind, going_out_bonus, team_red_threes
from .search import going_out_plan

if TYPE_CHECKING:
    from ...rules import Rules


class Classic(Variant):
    name = "classic"
    target_max = 10_000
    rule_ids: dict[str, str] = {}
    hand_values = VALUE
    meld_event_says_went_out = True

    # ------------------------------------------------------------------ the table

    def default_target(self, players: int, teams: int) -> int:
        """5,000 (R-GAME-1), and at six 10,000 with two teams or 7,500 with three."""
        if players == 6:
            return 10_000 if teams == 2 else 7500
        return 5000

    def default_canastas_to_go_out(self, players: int) -> int:
        """One at four (the club), two at the other tables (R-HOUSE-TWO)."""
        return 1 if players == 4 else 2

    def validate(self, rules: Rules) -> None:
        if rules.hand_of_twelve and rules.players != 4:
            raise ValueError("hand_of_twelve is the four-handed game's (12 cards each at four)")

    def packs(self, rules: Rules) -> int:
        """Two packs (108 cards), three at six (162, R-TABLE-6)."""
        return 3 if rules.players == 6 else 2

    def hand_size(self, rules: Rules) -> int:
        """11 at four (12 with R-ART-12), 15 at two, 13 at three and six (seed 001)."""
        if rules.hand_of_twelve:
            return 12
        return {2: 15, 3: 13, 4: 11, 6: 13}[rules.players]

    def cards_drawn(self, rules: Rules) -> int:
        """Two at a table of two (seed 001), else one."""
        return 2 if rules.players == 2 else 1

    def opening_minimum(self, rules: Rules, team_score: int) -> int:
        """R-OPEN-1; R-ART-7000's minimums; at six in two teams of three, 150 from 7,500
        (R-TABLE-6-OPEN: their game is to 10,000)."""
        if rules.minimums_7000 and team_score >= 1500:
            return 70 if team_score < 3000 else 90 if team_score < 5000 else 120
        if team_score >= 7500 and rules.players == 6 and rules.teams == 2:
            return 150
        return club_minimum(team_score)

    # ------------------------------------------------------------------ melds, the pile

    check_entries = staticmethod(check_entries)
    enough_canastas = staticmethod(enough_canastas)
    top_card_meld = staticmethod(top_card_meld)

    def meld_size(self, sim: dict[str, Any], key: str) -> int:
        length: int = sim[key][2]
        return length

    def missing_canastas(self, state: DealState, code: str, why: str = "") -> IllegalMove:
        """The refusal says how many canastas the table needs (one, or two)."""
        return IllegalMove(code, why if state.rules.canastas_to_go_out == 1 else "two_canastas")

    def check_after_undo(
        self, state: DealState, team: int, hand_after: list[str], laid: Resolved, total: int
    ) -> None:
        check_minimum_reachable(state, team, hand_after, laid, state.minimums[team] - total)

    def lay_melds(
        self, state: DealState, team: int, resolved: Resolved, *, this_turn: bool = True
    ) -> list[dict[str, Any]]:
        events = meld_events(resolved, state.melds[team])
        lay(state, team, resolved, this_turn=this_turn)
        return events

    def meld_view(self, key: str, cards: list[str]) -> dict[str, Any]:
        return {"rank": key, "cards": list(cards), "canasta": canasta_kind(cards)}

    # ------------------------------------------------------------------ going out, scoring

    going_out_bonus = staticmethod(going_out_bonus)
    red_three_points = staticmethod(team_red_threes)

    def canasta_bonus(self, key: str, cards: list[str]) -> int:
        return canasta_bonus(cards)

    def going_out_plan(
        self, rules: Rules, hand: list[str], melds: Melds, points: int
    ) -> GoingOut | None:
        canastas = rules.canastas_to_go_out
        return going_out_plan(
            hand, melds, strict=rules.strict_wilds, canastas=canastas, points=points
        )

    def lay_down_plan(
        self, rules: Rules, hand: list[str], melds: Melds
    ) -> list[dict[str, Any]] | None:
        strict = rules.strict_wilds
        plan = going_out_plan(hand, melds, strict=strict, canastas=0, points=0, discard=False)
        return None if plan is None else plan[0]

    # ------------------------------------------------------------------ the move generator

    pile_takes = staticmethod(pile_takes)
    legal_melds = staticmethod(legal_melds)

    # ------------------------------------------------------------------ a deal from a view

    def view_keys(self, melds: list[dict[str, Any]]) -> list[str]:
        return [meld["rank"] for meld in melds]

    def event_key(self, meld: dict[str, Any]) -> str:
        rank: str = meld["rank"]
        return rank


CLASSIC = Classic()
