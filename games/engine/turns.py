"""The turn and the stock (R-TURN-1/2, R-END-1/2, R-TABLE-2): drawing, and passing the turn on."""

from .cards import RED_THREES
from .errors import IllegalMove
from .pile import must_take_pile
from .scoring import finish
from .state import DealState, Event


def draw(state: DealState, seat: int, commit: bool) -> Event:
    if state.phase != "draw":
        raise IllegalMove("wrong_phase", "already_drew")
    if not state.stock:  # R-END-2
        if state.rules.stock_out == "classic" and must_take_pile(state, seat):
            raise IllegalMove("wrong_phase", "must_take_pile")
        if not commit:
            return {}
        finish(state, None)
        return {
            "public": {
                "type": "draw",
                "seat": seat,
                "red_threes": [],
                "stock_count": 0,
                "deal_over": True,
            },
            "private": {"cards": []},
        }
    if not commit:
        return {}
    hand = state.hands[seat]
    stock = state.stock
    drawn: list[str] = []
    reds: list[str] = []
    ended = False
    # The first `cards_drawn` cards off the stock are the draw's own (two at a table of two);
    # each red three among the cards adds a replacement after them (R-TURN-2, R-TABLE-2).
    own = state.rules.cards_drawn
    wanted = own
    taken = 0
    while taken < wanted:
        card = stock.pop()
        taken += 1
        if card in RED_THREES:  # R-TURN-2
            reds.append(card)
            state.red[state.seating.team_of(seat)].append(card)
            wanted += 1
        else:
            hand.append(card)
            drawn.append(card)
        if not stock:
            # R-END-1: drawing the last card ends the deal (also when it is the first of two
            # due); a last card taken as a red three's replacement does not (R-END-2), a red
            # three as the last card does (it still counts). Variant "classic" plays on with
            # the pile.
            ended = card in RED_THREES or (taken <= own and state.rules.stock_out == "club")
            break
    if ended:
        finish(state, None)
    else:
        state.phase = "play"
        state.drew = "stock"
    return {
        "public": {
            "type": "draw",
            "seat": seat,
            "red_threes": reds,
            "stock_count": len(stock),
            "deal_over": ended,
        },
        "private": {"cards": drawn},
    }


def end_turn(state: DealState) -> None:
    """The turn passes to the left (R-DEAL-1); the turn-local state starts afresh."""
    if state.base:
        state.melded[state.turn] = True
    state.drew = None
    state.base = {}
    state.points = 0
    state.undo_used = False
    state.opened_now = False
    state.question = None  # R-HOUSE-ASK: an answer binds its own turn only
    state.turn = state.seating.next_seat(state.turn)
    state.phase = "draw"
