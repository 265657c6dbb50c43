"""The end of a deal and its scoring (R-SCORE-1, R-CAN-1, R-RED-1/2, R-OUT-1/3/4, R-END,
R-TABLE-6-RED)."""

from .cards import VALUE, WILDS, red_three_points
from .samba_scoring import sequence_results
from .state import DealState

NATURAL_CANASTA_BONUS = 500
MIXED_CANASTA_BONUS = 300
GOING_OUT_BONUS = 100
CONCEALED_GOING_OUT_BONUS = 200
DOUBLE_GOING_OUT_BONUS = 100  # R-HOUSE-DOUBLE, DECIDED: each partner who lays down
ACABA_POINTS = 1500  # R-ACABA-1: what every other side scores


def canasta_kind(cards: list[str]) -> str | None:
    """R-CAN-1: None below seven cards, else "natural" (no wild) or "mixed"."""
    if len(cards) < 7:
        return None
    return "mixed" if any(card in WILDS for card in cards) else "natural"


def score_team(
    melds: list[list[str]],
    red_threes: int,
    hands: list[list[str]],
    going_out: int,
    *,
    packs: int,
    reds_plus: bool | None = None,
) -> dict[str, int]:
    """One team's line of the contract's `result` (red threes as `packs` packs count them;
    plus when the team melded, R-RED-2, unless `reds_plus` says otherwise, R-ART-RED)."""
    cards = sum(VALUE[card] for meld in melds for card in meld)
    canastas = 0
    for meld in melds:
        kind = canasta_kind(meld)
        if kind == "natural":
            canastas += NATURAL_CANASTA_BONUS
        elif kind == "mixed":
            canastas += MIXED_CANASTA_BONUS
    reds = red_three_points(red_threes, packs=packs)
    if not melds if reds_plus is None else not reds_plus:  # R-RED-2, R-TABLE-6-RED, R-ART-RED
        reds = -reds
    hand = -sum(VALUE[card] for cards in hands for card in cards)
    return {
        "cards": cards,
        "canastas": canastas,
        "red_threes": reds,
        "going_out": going_out,
        "hand": hand,
        "total": cards + canastas + reds + going_out + hand,
    }


def going_out_bonus(state: DealState, out_seat: int) -> int:
    """R-OUT-1/3: 100, or 200 when `out_seat` went out concealed in this turn."""
    team = state.seating.team_of(out_seat)
    concealed = (
        not state.melded[out_seat]
        and all(length == 0 for length in state.base.values())
        and any(len(state.melds[team][rank]) >= 7 for rank in state.base)
    )
    return CONCEALED_GOING_OUT_BONUS if concealed else GOING_OUT_BONUS


def finish(state: DealState, out_seat: int | None) -> None:
    """R-OUT-4 / R-END: the deal is over (`out_seat` went out, or None); score it (R-SCORE-1)."""
    if state.rules.sequences:
        state.result = sequence_results(state, out_seat)
        state.phase = "over"
        return
    seating = state.seating
    going_out = [0 for _ in seating.teams]
    out = state.out  # R-HOUSE-DOUBLE: the bonus was judged when the player went out
    if out_seat is not None:
        going_out[seating.team_of(out_seat)] = (
            out["bonus"] if out is not None else going_out_bonus(state, out_seat)
        )
    state.result = [
        score_team(
            list(state.melds[team].values()),
            len(state.red[team]),
            [state.hands[seat] for seat in seats],
            going_out[team],
            packs=state.rules.packs,
            reds_plus=_reds_plus(state, out_seat, team),
        )
        for team, seats in enumerate(seating.teams)
    ]
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


def _reds_plus(state: DealState, out_seat: int | None, team: int) -> bool | None:
    """R-ART-RED: red threes count for the side that went out and against every other; when
    nobody went out (or at a club table) R-RED-2 decides (None)."""
    if out_seat is None or state.rules.red_threes != "going_out":
        return None
    return state.seating.team_of(out_seat) == team


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
