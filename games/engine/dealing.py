"""Dealing the cards (R-DEAL-2..5, R-TABLE-DEAL): hands, the upcard, the stock, dealt red threes."""

from .cards import RED_THREES, WILDS
from .state import DealState


def deal_cards(state: DealState, codes: list[str]) -> None:
    """Deals `codes` (top first) in the stacked-deck order of CONTRACT §2, generalised to the
    table (R-TABLE-DEAL): `rules.hand_size` rounds of one card each from seat dealer+1."""
    order = state.seating.round_from(state.turn)
    players = len(order)
    position = state.rules.hand_size * players
    for first, seat in enumerate(order):  # R-DEAL-2, one card at a time from dealer+1
        state.hands[seat].extend(codes[first:position:players])
    pile = [codes[position]]
    position += 1
    stop_on_black = state.rules.upcard_stops_on_black_three
    while _covers_upcard(pile[-1], stop_on_black):  # R-DEAL-3
        pile.append(codes[position])
        position += 1
    state.pile = pile
    state.frozen = any(card in WILDS or card in RED_THREES for card in pile[:-1])  # R-DEAL-4
    state.stock = codes[position:][::-1]
    for seat in order:  # R-DEAL-5
        hand = state.hands[seat]
        i = 0
        while i < len(hand):
            if hand[i] in RED_THREES:
                state.red[state.seating.team_of(seat)].append(hand.pop(i))
                hand.append(state.stock.pop())
            else:
                i += 1


def _covers_upcard(card: str, stop_on_black_three: bool) -> bool:
    """R-DEAL-3: a wild or a three turned up is covered by the next stock card."""
    if card in WILDS or card in RED_THREES:
        return True
    return card[0] == "3" and not stop_on_black_three
