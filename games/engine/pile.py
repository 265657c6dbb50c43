"""Taking the discard pile and the freeze (R-PILE-1..6, R-FRZ-1..4, R-OPEN-4)."""

from typing import Any

from .actions import Entry
from .cards import RED_THREES, WILDS
from .errors import IllegalMove
from .house import canasta_opening, canasta_opening_refused, go_out
from .melds import (
    MeldShape,
    canasta_in_hand,
    check_black_threes,
    check_entries,
    enough_canastas,
    lay,
    meld_events,
    missing_canastas,
    require_in_hand,
)
from .opening import below_minimum
from .state import DealState, Event


def take_pile(
    state: DealState,
    seat: int,
    cards: list[str],
    entries: list[Entry],
    commit: bool,
    target: int | None = None,
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
    rank = top[0]
    if target is not None:
        check_pile_meld(state.melds[team], rank, target)
    wild_count = 0
    for card in cards:
        if card in WILDS:
            wild_count += 1
        elif card[0] == "3":
            raise IllegalMove("threes_not_allowed")
        elif card[0] != rank:
            raise IllegalMove("mixed_ranks", "top_rank")
    natural_count = len(cards) - wild_count
    opened = state.opened[team]
    # R-FRZ-1..3: the pair that takes the pile is natural; wilds beside it join the new meld,
    # as they would from `entries` (the two forms of one play agree).
    if state.frozen or not opened:
        if natural_count < 2:
            raise IllegalMove("pile_frozen", "frozen" if opened else "unopened")
    elif rank not in state.melds[team] and (natural_count < 1 or len(cards) < 2):  # R-PILE-4
        raise IllegalMove("cannot_take_pile", "pair_or_meld", rule="R-PILE-4")
    hand = state.hands[seat]
    used = cards + [card for _, meld_cards in entries for card in meld_cards]
    require_in_hand(hand, used)
    sim: dict[str, MeldShape] = {}
    resolved, points, black = check_entries(state, team, [(rank, [top, *cards]), *entries], sim)
    rest = pile[:-1]
    reds = [card for card in rest if card in RED_THREES]  # R-PILE-6
    left = len(hand) - len(used) + len(rest) - len(reds)
    canasta = enough_canastas(state, team, sim)
    if black:
        check_black_threes(state, left, canasta)
    if len(hand) == 1 and len(pile) == 1:  # R-PILE-3 first sentence, canasta or not
        raise IllegalMove("cannot_take_pile", "one_card_pile", rule="R-PILE-3")
    if not canasta and left < 2:  # R-PILE-3: with a canasta, no card left is going out
        raise missing_canastas(state, "cannot_take_pile", "no_card_left")
    if not opened:
        if canasta_opening(state, team):  # R-HOUSE-7500: the top card's meld is a canasta
            if sim[rank][2] < 7:
                raise canasta_opening_refused()
        elif points < state.minimums[team] and not canasta_in_hand(state, sim, rank):
            # R-OPEN-4, R-FRZ-4 (R-ART-CANASTA: a canasta from the hand opens at any points)
            raise below_minimum(points, state.minimums[team])
    if not commit:
        return {}
    for card in used:
        hand.remove(card)
    events = meld_events(resolved, state.melds[team])
    lay(state, team, resolved)
    return pile_taken(
        state,
        seat=seat,
        top=top,
        rest=rest,
        reds=reds,
        points=points,
        opened=opened,
        melds=events,
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
    (`melds`: the events of the melds laid). Shared by every game's `take_pile`."""
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


def check_pile_meld(melds: dict[str, list[str]], rank: str, index: int) -> None:
    """`take_pile` naming `"meld": i` in the classic game: meld i must be the team's meld of
    the top card's rank, which the top card joins anyway (R-MELD-1)."""
    if index >= len(melds) or list(melds)[index] != rank:
        raise IllegalMove("cannot_take_pile", "top_joins_its_rank")


def must_take_pile(state: DealState, seat: int) -> bool:
    """Variant stock_out="classic": the top card fits the team's meld, pile not frozen."""
    team = state.seating.team_of(seat)
    if not state.pile or state.frozen or state.pile[-1][0] not in state.melds[team]:
        return False
    try:
        take_pile(state, seat, [], [], False)
    except IllegalMove:
        return False
    return True
