"""Melds in the classic game (R-MELD-1..4, R-CAN-1/2, R-OUT-1/2, R-UNDO-3): one meld of each
rank a side, keyed by the rank; wilds within R-MELD-2; black threes only going out."""

from typing import Any

from ...actions import Entry
from ...cards import IS_WILD, VALUE
from ...errors import IllegalMove
from ...melds import split_entry
from ...state import DealState
from ...variant import Resolved
from .search import opening_plan

# A meld being checked: [naturals, wilds, length] after the cards of this action.
MeldShape = list[int]


def check_entries(
    state: DealState, team: int, entries: list[Entry], sim: dict[str, MeldShape]
) -> tuple[Resolved, int, bool]:
    """Checks meld entries in order against the team's melds (R-MELD-1..4).

    Records the resulting meld shapes in `sim`; returns the entries with their ranks,
    the card points they add and whether black threes are among them.
    """
    strict = state.rules.strict_wilds
    melds = state.melds[team]
    resolved: Resolved = []
    points = 0
    black = False
    for named, cards in entries:
        hint = meld_rank_at(melds, named) if isinstance(named, int) else named
        found, wilds, blacks = split_entry(cards)
        naturals = len(found)
        natural_rank = found[0][0] if found else None
        for card in found:
            if card[0] != natural_rank:
                raise IllegalMove("mixed_ranks")
        if blacks:  # R-MELD-4
            if naturals or wilds or hint not in (None, "3"):
                raise IllegalMove("threes_not_allowed", "black_threes_alone")
            if "3" in melds or "3" in sim:
                raise IllegalMove("threes_not_allowed")
            if blacks < 3:
                raise IllegalMove("meld_too_small")
            sim["3"] = [blacks, 0, blacks]
            black = True
            rank = "3"
        else:
            if natural_rank is None:
                if hint == "3":
                    raise IllegalMove("threes_not_allowed")
                if hint is None:
                    raise IllegalMove("wild_only", "name_rank")
                rank = hint
                if rank not in sim and rank not in melds:  # R-MELD-3
                    raise IllegalMove("wild_only")
            else:
                if hint is not None and hint != natural_rank:
                    raise IllegalMove("mixed_ranks")
                rank = natural_rank
            shape = sim.get(rank)
            if shape is None and rank in melds:
                existing = melds[rank]
                on_wilds = sum(map(IS_WILD.__getitem__, existing))
                shape = [len(existing) - on_wilds, on_wilds, len(existing)]
            if shape is None:
                if len(cards) < 3:
                    raise IllegalMove("meld_too_small")
                shape = [0, 0, 0]
            naturals += shape[0]
            wilds += shape[1]
            if wilds > 3 or (wilds >= naturals if strict else wilds > naturals):  # R-MELD-2
                raise IllegalMove("too_many_wilds")
            sim[rank] = [naturals, wilds, shape[2] + len(cards)]
        points += sum(map(VALUE.__getitem__, cards))
        resolved.append((rank, cards))
    return resolved, points, black


def meld_rank_at(melds: dict[str, list[str]], index: object) -> str:
    """The rank of the team's meld at `index` in the view (an entry's `"meld": i`)."""
    assert isinstance(index, int)
    if index >= len(melds):
        raise IllegalMove("bad_action", "no_meld", number=index)
    return list(melds)[index]


def enough_canastas(state: DealState, team: int, sim: dict[str, MeldShape]) -> bool:
    """R-OUT-1/2: the team has the canastas going out needs (R-CAN-1: melds of seven or more,
    on the table or after `sim`): one, or two with `rules.canastas_to_go_out` (R-HOUSE-TWO and
    the tables of two, three and six)."""
    needed = state.rules.canastas_to_go_out
    for shape in sim.values():
        if shape[2] >= 7:
            needed -= 1
    for rank, meld in state.melds[team].items():
        if len(meld) >= 7 and rank not in sim:
            needed -= 1
    return needed <= 0


def check_minimum_reachable(
    state: DealState,
    team: int,
    hand_after: list[str],
    laid: Resolved,
    missing: int,
) -> None:
    """R-UNDO-3: after an undo, a meld must leave the minimum reachable from the hand left
    (`missing` points short, `laid` the entries about to join the team's melds)."""
    melds_after = {rank: list(cards) for rank, cards in state.melds[team].items()}
    for rank, cards in laid:
        melds_after.setdefault(rank, []).extend(cards)
    if turn_opening_plan(state, hand_after, melds_after, missing) is None:
        raise IllegalMove("minimum_unreachable")


def turn_opening_plan(
    state: DealState, hand: list[str], melds: dict[str, list[str]], target: int
) -> list[dict[str, Any]] | None:
    """Melds from `hand` on the team's `melds` worth `target` points, as this turn may lay
    them (search.opening_plan, R-OPEN-5's exemption after a stock draw included), or None."""
    return opening_plan(
        hand,
        melds,
        strict=state.rules.strict_wilds,
        target=target,
        exempt_out=state.rules.concealed_out_skips_minimum and state.drew == "stock",
        canastas=state.rules.canastas_to_go_out,
    )


def meld_events(resolved: Resolved, melds_before: dict[str, list[str]]) -> list[dict[str, Any]]:
    """The entries as the log shows them, each `new` when it starts a meld (the team had none of
    its rank before), so a reader knows where every card went."""
    ranks = set(melds_before)
    events = []
    for rank, cards in resolved:
        events.append({"rank": rank, "cards": list(cards), "new": rank not in ranks})
        ranks.add(rank)
    return events
