"""Scoring the classic game (R-CAN-1, R-RED-1/2, R-OUT-1/3, R-TABLE-6-RED, R-ART-RED)."""

from ...cards import WILDS, red_three_points
from ...state import DealState

NATURAL_CANASTA_BONUS = 500
MIXED_CANASTA_BONUS = 300
GOING_OUT_BONUS = 100
CONCEALED_GOING_OUT_BONUS = 200


def canasta_kind(cards: list[str]) -> str | None:
    """R-CAN-1: None below seven cards, else "natural" (no wild) or "mixed"."""
    if len(cards) < 7:
        return None
    return "mixed" if any(card in WILDS for card in cards) else "natural"


def canasta_bonus(cards: list[str]) -> int:
    kind = canasta_kind(cards)
    if kind == "natural":
        return NATURAL_CANASTA_BONUS
    return MIXED_CANASTA_BONUS if kind == "mixed" else 0


def going_out_bonus(state: DealState, out_seat: int) -> int:
    """R-OUT-1/3: 100, or 200 when `out_seat` went out concealed in this turn."""
    team = state.seating.team_of(out_seat)
    concealed = (
        not state.melded[out_seat]
        and all(length == 0 for length in state.base.values())
        and any(len(state.melds[team][rank]) >= 7 for rank in state.base)
    )
    return CONCEALED_GOING_OUT_BONUS if concealed else GOING_OUT_BONUS


def team_red_threes(state: DealState, team: int, out_seat: int | None) -> int:
    """The team's red threes, as the table's packs count them (R-RED-1, R-TABLE-6-RED): plus
    when the team melded (R-RED-2), unless R-ART-RED counts them by who went out."""
    reds = red_three_points(len(state.red[team]), packs=state.rules.packs)
    plus = _reds_plus(state, out_seat, team)
    if not state.melds[team] if plus is None else not plus:
        reds = -reds
    return reds


def _reds_plus(state: DealState, out_seat: int | None, team: int) -> bool | None:
    """R-ART-RED: red threes count for the side that went out and against every other; when
    nobody went out (or at a club table) R-RED-2 decides (None)."""
    if out_seat is None or state.rules.red_threes != "going_out":
        return None
    return state.seating.team_of(out_seat) == team
