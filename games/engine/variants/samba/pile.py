"""The top card of a pile take in Samba and Bolivia (R-SAMBA-PILE; R-FRZ as the club's): with a
natural pair of its rank it starts a new group; alone, on an open pile, it joins a meld of the
side that is not yet a canasta."""

from ...actions import Entry
from ...cards import SUITS
from ...errors import IllegalMove
from ...pile import naturals_with_top
from ...state import DealState
from .sequences import CLOSED_AT, run_of


def top_card_meld(
    state: DealState, team: int, top: str, cards: list[str], target: int | None
) -> Entry:
    """With a natural pair of the top card's rank (a new group), or, the pile not frozen and
    the side open, the top card alone onto meld `target` that is not yet a canasta."""
    frozen = state.frozen or not state.opened[team]  # R-FRZ-1/2
    rank = top[0]
    if cards:
        if target is not None:
            raise IllegalMove("bad_action", "pair_starts_meld")
        if naturals_with_top(cards, rank) < 2:
            raise IllegalMove("pile_frozen" if frozen else "cannot_take_pile", "natural_pair")
        return rank, [top, *cards]
    if frozen:
        raise IllegalMove("pile_frozen")
    _check_top_joins(state.melds[team], top, target)
    return target, [top]


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
