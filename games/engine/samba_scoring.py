"""Scoring a deal of Samba or Bolivia (R-SAMBA-CAN/RED/OUT/SCORE, R-BOL-WILD/ESC/RED/BLACK)."""

from .cards import BLACK_THREES, VALUE
from .sequences import BLACK_THREES_MELD, canasta_count, canasta_of
from .state import DealState

CANASTA_BONUS = {"natural": 500, "mixed": 300, "samba": 1500, "escalera": 1500, "bolivia": 2500}
GOING_OUT_BONUS = 200  # R-SAMBA-OUT: no concealed bonus
ALL_RED_THREES = 6
ALL_RED_THREES_POINTS = 1000  # R-SAMBA-RED
BLACK_THREE_IN_HAND = 100  # R-BOL-BLACK


def sequence_results(state: DealState, out_seat: int | None) -> list[dict[str, int]]:
    """One contract `result` line per side (R-SCORE-1's parts, Samba's values)."""
    seating = state.seating
    game = state.rules.game
    lines: list[dict[str, int]] = []
    for team, seats in enumerate(seating.teams):
        melds = state.melds[team]
        cards = sum(VALUE[card] for meld in melds.values() for card in meld)
        canastas = 0
        for key, meld in melds.items():
            kind = canasta_of(key, meld, game)
            if kind is not None and key[0] != BLACK_THREES_MELD:
                canastas += CANASTA_BONUS[kind]
        count = len(state.red[team])
        reds = ALL_RED_THREES_POINTS if count == ALL_RED_THREES else 100 * count
        if canasta_count(state, team, {})[0] < 2:  # R-SAMBA-RED, R-BOL-RED
            reds = -reds
        going_out = (
            GOING_OUT_BONUS if out_seat is not None and seating.team_of(out_seat) == team else 0
        )
        hand = 0
        for seat in seats:
            for card in state.hands[seat]:
                if game == "bolivia" and card in BLACK_THREES:
                    hand -= BLACK_THREE_IN_HAND
                else:
                    hand -= VALUE[card]
        lines.append(
            {
                "cards": cards,
                "canastas": canastas,
                "red_threes": reds,
                "going_out": going_out,
                "hand": hand,
                "total": cards + canastas + reds + going_out + hand,
            }
        )
    return lines
