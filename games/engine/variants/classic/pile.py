"""The top card of a pile take in the classic game (R-PILE-4, R-FRZ-1..3): it melds with cards of
its own rank in the team's one meld of that rank."""

from ...actions import Entry
from ...errors import IllegalMove
from ...pile import naturals_with_top
from ...state import DealState


def top_card_meld(
    state: DealState, team: int, top: str, cards: list[str], target: int | None
) -> Entry:
    """The top card's entry of a take with `cards`; `target` (`"meld": i`) may only name the
    team's meld of the top card's rank, which the top card joins anyway (R-MELD-1)."""
    rank = top[0]
    melds = state.melds[team]
    if target is not None and (target >= len(melds) or list(melds)[target] != rank):
        raise IllegalMove("cannot_take_pile", "top_joins_its_rank")
    natural_count = naturals_with_top(cards, rank)
    opened = state.opened[team]
    # R-FRZ-1..3: the pair that takes the pile is natural; wilds beside it join the new meld,
    # as they would from `entries` (the two forms of one play agree).
    if state.frozen or not opened:
        if natural_count < 2:
            raise IllegalMove("pile_frozen", "frozen" if opened else "unopened")
    elif rank not in melds and (natural_count < 1 or len(cards) < 2):  # R-PILE-4
        raise IllegalMove("cannot_take_pile", "pair_or_meld", rule="R-PILE-4")
    return rank, [top, *cards]
