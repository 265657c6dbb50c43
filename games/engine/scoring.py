"""The end of a deal and its scoring (R-SCORE-1, R-OUT-4, R-END; R-HOUSE-DOUBLE and R-ACABA's
lines): what each part of a line is worth is the game's (`state.variant`: canastas, red threes,
going out, the cards left in hand)."""

from .cards import VALUE
from .state import DealState

DOUBLE_GOING_OUT_BONUS = 100  # R-HOUSE-DOUBLE, DECIDED: each partner who lays down
ACABA_POINTS = 1500  # R-ACABA-1: what every other side scores


def finish(state: DealState, out_seat: int | None) -> None:
    """R-OUT-4 / R-END: the deal is over (`out_seat` went out, or None); score it (R-SCORE-1):
    one line per team, its melded cards + canasta bonuses + red threes + going out − the cards
    left in its players' hands."""
    seating = state.seating
    variant = state.variant
    going_out = [0 for _ in seating.teams]
    out = state.out  # R-HOUSE-DOUBLE: the bonus was judged when the player went out
    if out_seat is not None:
        going_out[seating.team_of(out_seat)] = (
            out["bonus"] if out is not None else variant.going_out_bonus(state, out_seat)
        )
    hand_values = variant.hand_values
    state.result = []
    for team, seats in enumerate(seating.teams):
        melds = state.melds[team]
        cards = sum(VALUE[card] for meld in melds.values() for card in meld)
        canastas = sum(variant.canasta_bonus(key, meld) for key, meld in melds.items())
        reds = variant.red_three_points(state, team, out_seat)
        hand = -sum(hand_values[card] for seat in seats for card in state.hands[seat])
        state.result.append(
            {
                "cards": cards,
                "canastas": canastas,
                "red_threes": reds,
                "going_out": going_out[team],
                "hand": hand,
                "total": cards + canastas + reds + going_out[team] + hand,
            }
        )
    if state.rules.double_going_out:  # R-HOUSE-DOUBLE: a line of its own at such a table
        laid_down = out["laid_down"] if out is not None else []
        for team, line in enumerate(state.result):
            bonus = DOUBLE_GOING_OUT_BONUS * sum(
                1 for seat in laid_down if seating.team_of(seat) == team
            )
            total = line.pop("total")
            line["double_going_out"] = bonus
            line["total"] = total + bonus
    if state.rules.acaba:  # R-ACABA-1: a line of its own at such a table
        for line in state.result:
            line["acaba"] = 0
            line["total"] = line.pop("total")
    state.phase = "over"


def finish_acaba(state: DealState, seat: int) -> None:
    """R-ACABA-1: the deal ends; every other side scores 1,500 and `seat`'s side nothing."""
    own = state.seating.team_of(seat)
    state.result = []
    for team in range(len(state.seating.teams)):
        acaba = 0 if team == own else ACABA_POINTS
        line = dict.fromkeys(("cards", "canastas", "red_threes", "going_out", "hand"), 0)
        if state.rules.double_going_out:
            line["double_going_out"] = 0
        line["acaba"] = acaba
        line["total"] = acaba
        state.result.append(line)
    state.phase = "over"
