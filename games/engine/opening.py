"""The first meld's minimum and «Вернуть как было» (R-OPEN-1..5, R-UNDO-1/2; after an undo the
game's rule: R-UNDO-3, R-SAMBA-UNDO)."""

from .errors import IllegalMove
from .state import DealState, Event


def club_minimum(team_score: int) -> int:
    """R-OPEN-1: the minimum of a team's first meld from its total at the start of the deal."""
    if team_score < 0:
        return 15
    if team_score < 1500:
        return 50
    return 90 if team_score < 3000 else 120


def below_minimum(points: int, minimum: int) -> IllegalMove:
    return IllegalMove("below_minimum", "points", points=points, minimum=minimum)


def exempt_from_minimum(state: DealState, canasta: bool) -> bool:
    """Variant concealed_out_skips_minimum (R-OPEN-5): going out after a stock draw with a
    canasta. Only an unopened team asks, so every meld of the team was laid this turn."""
    return state.rules.concealed_out_skips_minimum and state.drew == "stock" and canasta


def undo(state: DealState, seat: int, commit: bool) -> Event:
    """R-UNDO-1/2: every card melded this turn goes back to the hand; the turn goes on."""
    if state.phase != "play" or not state.base:
        raise IllegalMove("undo_not_allowed", "nothing_melded", rule="R-UNDO-1")
    if state.drew == "pile":  # R-UNDO-2
        raise IllegalMove("undo_not_allowed", "pile_taken")
    if state.undo_used:
        raise IllegalMove("undo_not_allowed", "once_a_turn")
    if state.question is not None and "about" not in state.question:
        # R-HOUSE-ASK: the melds the partner was asked about stand («Acaba» asks no such thing)
        raise IllegalMove("undo_not_allowed", "partner_asked")
    if not commit:
        return {}
    team = state.seating.team_of(seat)
    melds = state.melds[team]
    hand = state.hands[seat]
    returned: list[str] = []
    for rank, length in state.base.items():  # R-UNDO-1
        meld = melds[rank]
        returned.extend(meld[length:])
        if length:
            del meld[length:]
        else:
            del melds[rank]
    hand.extend(returned)
    if state.opened_now:
        state.opened[team] = False
        state.opened_now = False
    state.base = {}
    state.points = 0
    state.undo_used = True
    return {"public": {"type": "undo", "seat": seat, "cards": returned}, "private": {}}


def can_undo(state: DealState, seat: int | None) -> bool:
    return (
        seat == state.turn
        and state.phase == "play"
        and state.drew == "stock"
        and not state.undo_used
        and bool(state.base)
        and (state.question is None or "about" in state.question)
    )
