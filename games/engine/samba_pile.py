"""Taking the pile in Samba and Bolivia (R-SAMBA-PILE, R-BOL-PILE; R-PILE-2/3/6, R-FRZ, R-OPEN-4
as the club's)."""

from .actions import Entry
from .cards import RED_THREES, SUITS, WILDS
from .errors import IllegalMove
from .melds import check_black_threes, lay, require_in_hand
from .opening import below_minimum
from .pile import pile_taken
from .samba_melds import (
    check_sequence_entries,
    missing_sequence_canastas,
    sequence_meld_events,
)
from .sequences import CLOSED_AT, enough_to_go_out, run_of
from .state import DealState, Event


def sequence_take_pile(
    state: DealState,
    seat: int,
    cards: list[str],
    entries: list[Entry],
    target: int | None,
    commit: bool,
) -> Event:
    """With a natural pair of the top card's rank (a new group), or, the pile not frozen and
    the side open, the top card alone onto meld `target` that is not yet a canasta."""
    if state.phase != "draw":
        raise IllegalMove("wrong_phase", "already_drew")
    pile = state.pile
    if not pile:
        raise IllegalMove("cannot_take_pile", "empty")
    top = pile[-1]
    if top in WILDS or top[0] == "3":  # R-PILE-1, R-PILE-5, R-BOL-PILE
        raise IllegalMove("pile_blocked")
    team = state.seating.team_of(seat)
    opened = state.opened[team]
    frozen = state.frozen or not opened  # R-FRZ-1/2
    rank = top[0]
    first: tuple[str | int | None, list[str]]
    if cards:
        if target is not None:
            raise IllegalMove("bad_action", "pair_starts_meld")
        naturals = 0
        for card in cards:
            if card in WILDS:
                continue
            if card[0] == "3":
                raise IllegalMove("threes_not_allowed")
            if card[0] != rank:
                raise IllegalMove("mixed_ranks", "top_rank")
            naturals += 1
        if naturals < 2:
            raise IllegalMove("pile_frozen" if frozen else "cannot_take_pile", "natural_pair")
        first = (rank, [top, *cards])
    else:
        if frozen:
            raise IllegalMove("pile_frozen")
        _check_top_joins(state.melds[team], top, target)
        first = (target, [top])
    hand = state.hands[seat]
    used = cards + [card for _, meld_cards in entries for card in meld_cards]
    require_in_hand(hand, used)
    sim: dict[str, list[str]] = {}
    resolved, points, black = check_sequence_entries(state, team, [first, *entries], sim)
    rest = pile[:-1]
    reds = [card for card in rest if card in RED_THREES]  # R-PILE-6
    left = len(hand) - len(used) + len(rest) - len(reds)
    # The canastas matter only going out, or close to it (R-PILE-3, R-MELD-4).
    canasta = (black or left < 2) and enough_to_go_out(state, team, sim)
    if black:
        check_black_threes(state, left, True)
        if not canasta:
            raise missing_sequence_canastas(state, "no_canasta")
    if len(hand) == 1 and len(pile) == 1:  # R-PILE-3
        raise IllegalMove("cannot_take_pile", "one_card_pile")
    if not canasta and left < 2:
        raise missing_sequence_canastas(state, "cannot_take_pile")
    if not opened and points < state.minimums[team]:  # R-OPEN-4, R-FRZ-4
        raise below_minimum(points, state.minimums[team])
    if not commit:
        return {}
    for card in used:
        hand.remove(card)
    lay(state, team, resolved)
    return pile_taken(
        state,
        seat=seat,
        top=top,
        rest=rest,
        reds=reds,
        points=points,
        opened=opened,
        melds=sequence_meld_events(state, team, resolved),
    )


def _check_top_joins(melds: dict[str, list[str]], top: str, target: int | None) -> None:
    """R-SAMBA-PILE (b): meld `target` is a group of the top card's rank or a sequence of its
    suit that it extends, and not yet a canasta."""
    if target is None:
        raise IllegalMove("cannot_take_pile", "name_meld")
    keys = list(melds)
    if target < len(keys):
        key = keys[target]
        meld = melds[key]
        if len(meld) < CLOSED_AT and (
            key[0] == top[0]
            or (key[0] in SUITS and key[0] == top[1] and run_of([*meld, top]) is not None)
        ):
            return
    raise IllegalMove("cannot_take_pile", "top_joins")
