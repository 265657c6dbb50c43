"""Scoring Samba and Bolivia (R-SAMBA-CAN/RED/OUT/SCORE, R-BOL-WILD/ESC/RED)."""

from ...state import DealState
from .sequences import BLACK_THREES_MELD, canasta_count, canasta_of

CANASTA_BONUS = {"natural": 500, "mixed": 300, "samba": 1500, "escalera": 1500, "bolivia": 2500}
GOING_OUT_BONUS = 200  # R-SAMBA-OUT: no concealed bonus
ALL_RED_THREES = 6
ALL_RED_THREES_POINTS = 1000  # R-SAMBA-RED


def canasta_bonus(key: str, cards: list[str], sequence_canasta: str) -> int:
    if key[0] == BLACK_THREES_MELD:
        return 0
    kind = canasta_of(key, cards, sequence_canasta)
    return 0 if kind is None else CANASTA_BONUS[kind]


def team_red_threes(state: DealState, team: int) -> int:
    """100 each, all six 1,000; plus for a side with two canastas at the end, else minus
    (R-SAMBA-RED, R-BOL-RED)."""
    count = len(state.red[team])
    reds = ALL_RED_THREES_POINTS if count == ALL_RED_THREES else 100 * count
    return -reds if canasta_count(state, team, {})[0] < 2 else reds
