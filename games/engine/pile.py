"""Taking the discard pile (R-PILE-1..6, R-FRZ-4, R-OPEN-4): the `take_pile` action; how the top
card may be melded (the freeze, the pair, the meld it joins) is the game's
(`state.variant.top_card_meld`)."""

from typing import Any

from .actions import Entry
from .cards import RED_THREES, WILDS
from .errors import IllegalMove
from .house import canasta_opening, canasta_opening_refused, go_out
from .melds import canasta_in_hand, check_black_threes, require_in_hand
from .opening import below_minimum
from .state import DealState, Event


def take_pile(
    state: DealState,
    seat: int,
    cards: list[str],
    entries: list[Entry],
    target: int | None,
    commit: bool,
) -> Event:
    if state.phase != "draw":
        raise IllegalMove("wrong_phase", "already_drew")
    pile = state.pile
    if not pile:
        raise IllegalMove("cannot_take_pile", "empty")
    top = pile[-1]
    if top in WILDS or top[0] == "3":  # R-PILE-1, R-PILE-5
        raise IllegalMove("pile_blocked")
    team = state.seating.team_of(seat)
    variant = state.variant
    first = variant.top_card_meld(state, team, top, cards, target)
    hand = state.hands[seat]
    used = cards + [card for _, meld_cards in entries for card in meld_cards]
    require_in_hand(hand, used)
    sim: dict[str, Any] = {}
    resolved, points, black = variant.check_entries(state, team, [first, *entries], sim)
    rest = pile[:-1]
    reds = [card for card in rest if card in RED_THREES]  # R-PILE-6
    left = len(hand) - len(used) + len(rest) - len(reds)
    # The canastas matter only going out, or close to it (R-PILE-3, R-MELD-4).
    canasta = (black or left < 2) and variant.enough_canastas(state, team, sim)
    if black:
        check_black_threes(state, left, canasta)
    if len(hand) == 1 and len(pile) == 1:  # R-PILE-3 first sentence, canasta or not
        raise IllegalMove("cannot_take_pile", "one_card_pile", rule="R-PILE-3")
    if not canasta and left < 2:  # R-PILE-3: with a canasta, no card left is going out
        raise variant.missing_canastas(state, "cannot_take_pile", "no_card_left")
    opened = state.opened[team]
    if not opened:
        top_meld = resolved[0][0]
        if canasta_opening(state, team):  # R-HOUSE-7500: the top card's meld is a canasta
            if variant.meld_size(sim, top_meld) < 7:
                raise canasta_opening_refused()
        elif points < state.minimums[team] and not canasta_in_hand(state, sim, top_meld):
            # R-OPEN-4, R-FRZ-4 (R-ART-CANASTA: a canasta from the hand opens at any points)
            raise below_minimum(points, state.minimums[team])
    if not commit:
        return {}
    for card in used:
        hand.remove(card)
    return pile_taken(
        state,
        seat=seat,
        top=top,
        rest=rest,
        reds=reds,
        points=points,
        opened=opened,
        melds=variant.lay_melds(state, team, resolved),
    )


def pile_taken(
    state: DealState,
    *,
    seat: int,
    top: str,
    rest: list[str],
    reds: list[str],
    points: int,
    opened: bool,
    melds: list[dict[str, Any]],
) -> Event:
    """The rest of the pile into the hand once the take's melds are laid (its red threes to
    the team's, R-PILE-6), the team opened, going out when no card is left; the take's event
    (`melds`: the events of the melds laid)."""
    hand = state.hands[seat]
    team = state.seating.team_of(seat)
    hand.extend(card for card in rest if card not in RED_THREES)
    state.red[team].extend(reds)
    state.pile.clear()
    state.frozen = False
    state.points = points
    if not opened:
        state.opened[team] = True
        state.opened_now = True
    state.phase = "play"
    state.drew = "pile"
    went_out = not hand
    if went_out:
        go_out(state, seat)
    return {
        "public": {
            "type": "take_pile",
            "seat": seat,
            "top": top,
            "count": len(rest) + 1,
            "melds": melds,
            "red_threes": reds,
            "went_out": went_out,
            "deal_over": state.phase == "over",
        },
        "private": {"cards": [card for card in rest if card not in RED_THREES]},
    }


def must_take_pile(state: DealState, seat: int) -> bool:
    """Variant stock_out="classic": the top card fits the team's meld, pile not frozen (the
    top card alone may join the team's meld)."""
    try:
        take_pile(state, seat, [], [], None, False)
    except IllegalMove:
        return False
    return True


def naturals_with_top(cards: list[str], rank: str) -> int:
    """How many naturals of the top card's `rank` a take's `cards` hold beside their wilds
    (refused: a three, a card of another rank)."""
    naturals = 0
    for card in cards:
        if card in WILDS:
            continue
        if card[0] == "3":
            raise IllegalMove("threes_not_allowed")
        if card[0] != rank:
            raise IllegalMove("mixed_ranks", "top_rank")
        naturals += 1
    return naturals
