"""Discarding and going out (R-TURN-1, R-OUT-1/4, R-OPEN-3, R-FRZ-1): the end of a turn."""

from .cards import WILDS
from .errors import IllegalMove
from .house import check_discard_answer, go_out
from .opening import below_minimum, exempt_from_minimum
from .state import DealState, Event
from .turns import end_turn


def discard(state: DealState, seat: int, card: str, commit: bool) -> Event:
    if state.phase != "play":
        raise IllegalMove("wrong_phase", "discard_before_draw")
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove("card_not_in_hand")
    left = len(hand) - 1
    if left == 0:  # going out (R-OUT-1), with the R-OPEN-5 variant's exemption
        team = state.seating.team_of(seat)
        variant = state.variant
        canasta = variant.enough_canastas(state, team, {})
        if not state.opened[team] and state.base and not exempt_from_minimum(state, canasta):
            raise below_minimum(state.points, state.minimums[team])
        if not canasta:
            raise variant.missing_canastas(state, "no_canasta")
    elif state.base:  # R-OPEN-3: melded this turn, so the team must have opened
        team = state.seating.team_of(seat)
        if not state.opened[team]:
            raise below_minimum(state.points, state.minimums[team])
    if state.question is not None:
        check_discard_answer(state, left)
    if not commit:
        return {}
    hand.remove(card)
    state.pile.append(card)
    if card in WILDS:  # R-FRZ-1
        state.frozen = True
    if left == 0:
        go_out(state, seat)
    else:
        end_turn(state)
    return {
        "public": {
            "type": "discard",
            "seat": seat,
            "card": card,
            "went_out": left == 0,
            "deal_over": state.phase == "over",
        },
        "private": {},
    }
