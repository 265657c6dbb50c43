"""The classic game's part of the move generator (`legal_actions`, moves.py): its pile takes and
its melds.

The takes are complete: one for every way the rules allow the top card to be melded (joining
the team's meld, with a natural pair, with a natural and a wild), with the hand melds that reach
the minimum when the team opens (R-PILE-3, R-OPEN-4: the pile's other cards join the hand, so
fewer hand cards are kept back) or that make the canasta a take leaving no card needs. The
melds are a useful set (not every subset of the hand).
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any

from ...actions import Action
from ...cards import IS_WILD, MELD_GROUP, RED_THREES, VALUE, WILDS, meld_groups
from ...house import canasta_opening
from .melds import turn_opening_plan
from .search import opening_plan

if TYPE_CHECKING:
    from ...deal import Deal


def pile_takes(deal: Deal, seat: int) -> list[Action]:
    """One legal take of the pile for each way of melding its top card that the rules allow."""
    pile = deal.pile
    if not pile or deal.phase != "draw":
        return []
    top = pile[-1]
    if top in WILDS or top[0] == "3":  # R-PILE-1, R-PILE-5
        return []
    rank = top[0]
    team = deal.seating.team_of(seat)
    hand = deal.hands[seat]
    opened = deal.opened[team]
    naturals = [card for card in hand if MELD_GROUP[card] == rank]
    if not opened and canasta_opening(deal, team):
        return _canasta_opening_take(deal, seat, naturals)
    bases: list[list[str]] = []
    if rank in deal.melds[team] and opened and not deal.frozen:
        bases.append([])
    if len(naturals) >= 2:
        bases.append(naturals[:2])
    if naturals and opened and not deal.frozen:
        wild_kinds = dict.fromkeys(filter(IS_WILD.__getitem__, hand))
        bases.extend([naturals[0], wild] for wild in wild_kinds)
    if not bases:
        return []
    keep = 2  # R-PILE-3: hand cards to keep back; the pile's other cards join the hand
    for card in islice(reversed(pile), 1, None):
        if card not in RED_THREES:  # R-PILE-6: red threes go to the table
            keep -= 1
            if not keep:
                break
    strict = deal.rules.strict_wilds
    meld = deal.melds[team].get(rank, ())
    on_wilds = sum(map(IS_WILD.__getitem__, meld))
    canastas = deal.rules.canastas_to_go_out
    missing = canastas
    for cards in deal.melds[team].values():
        if len(cards) >= 7:
            missing -= 1
            if not missing:
                break
    takes: list[Action] = []
    for base in bases:
        if opened:
            # Judged here from its shape (a test holds it equal to the engine): the meld of the
            # top card (R-MELD-2), then R-PILE-3.
            wilds = on_wilds + sum(map(IS_WILD.__getitem__, base))
            length = len(meld) + 1 + len(base)
            if wilds > 3 or (2 * wilds >= length if strict else 2 * wilds > length):
                continue
            if len(hand) == 1 and len(pile) == 1:
                continue
            made = 1 if length >= 7 > len(meld) else 0
            if missing <= made or len(hand) - len(base) >= keep:
                takes.append({"type": "take_pile", "cards": base})
                continue
            target = 1  # only the canastas going out needs let the take leave no card (R-PILE-3)
        else:
            target = deal.minimums[team] - VALUE[top] - sum(VALUE[card] for card in base)
        remaining = list(hand)
        for card in base:
            remaining.remove(card)
        melds = {name: list(cards) for name, cards in deal.melds[team].items()}
        melds[rank] = [*melds.get(rank, []), top, *base]
        plan = opening_plan(
            remaining, melds, strict=strict, target=target, keep=keep, canastas=canastas
        )
        if plan is None:
            continue
        action = {"type": "take_pile", "cards": base, "melds": plan}
        if deal.is_legal(seat, action):
            takes.append(action)
    return takes


def _canasta_opening_take(deal: Deal, seat: int, naturals: list[str]) -> list[Action]:
    """R-HOUSE-7500: the one way to open is a canasta of the top card's rank, made in the take
    from the hand's naturals of that rank and, when they fall short, as few wilds as will do."""
    if len(naturals) < 2:  # the pile is frozen for a side that has not opened (R-FRZ-2/3)
        return []
    wilds = [card for card in deal.hands[seat] if card in WILDS]
    wilds.sort(key=VALUE.__getitem__)
    short = max(0, 6 - len(naturals))  # the top card and the naturals make the rest of seven
    if short > len(wilds):
        return []
    take = {"type": "take_pile", "cards": naturals + wilds[:short]}
    return [take] if deal.is_legal(seat, take) else []


def legal_melds(deal: Deal, seat: int) -> list[Action]:
    """Legal melds worth considering (not every subset of the hand): the opening while the team
    has not opened, each rank's naturals (with a wild to make a pair a meld), each wild on each
    of the team's melds, black threes going out.

    Most are judged here from their shape (R-MELD-2, R-OUT-2, R-MELD-4, R-OPEN-3): the engine
    takes a few microseconds for each and a search makes thousands of such calls; the opening
    plan is legal as `opening_plan` builds it. Melds that go out or follow an undo below the
    minimum (R-UNDO-3) go to the engine. A test holds every offered meld legal to the engine.
    """
    team = deal.seating.team_of(seat)
    hand = deal.hands[seat]
    melds = deal.melds[team]
    hand_size = len(hand)
    legal: list[Action] = []
    # Melds leaving at most `engine_left` cards go to the engine: below the minimum, going out
    # (R-OPEN-3) or any meld after an undo (R-UNDO-3).
    engine_left = -1
    by_shape = True  # melds leaving more cards are judged by their shape
    if not deal.opened[team] and deal.points < deal.minimums[team]:
        plan = opening_melds(deal, seat)
        if plan:  # reaches the minimum, keeps the cards R-OUT-2 asks: legal as planned
            legal.append({"type": "meld", "melds": plan})
        if not deal.undo_used:
            engine_left = 0
        elif plan is None:
            # R-UNDO-3: a hand that cannot reach the minimum cannot after melding part of it
            # either (its plan would be a plan of the whole hand): only going out is left.
            engine_left, by_shape = 0, False
        else:
            engine_left = hand_size
    groups = meld_groups(hand)
    wilds = groups.pop("*", None)
    kinds = list(dict.fromkeys(wilds)) if wilds else None
    blacks = groups.pop("3", None)
    strict = deal.rules.strict_wilds
    # Canastas the team still needs to go out (R-OUT-1/2): one, or two (R-HOUSE-TWO, tables).
    missing = deal.rules.canastas_to_go_out
    for cards in melds.values():
        if len(cards) >= 7:
            missing -= 1
            if not missing:
                break
    canasta = missing <= 0

    # Each meld judged by its shape after the cards (R-MELD-2; R-OUT-2: `left` cards stay, and
    # going out needs `missing` canastas more, which a meld reaching seven makes).
    for rank, cards in groups.items():
        naturals = len(cards)
        meld = melds.get(rank)
        if meld is not None:
            entry: dict[str, Any] = {"cards": cards}
            left = hand_size - naturals
            on_wilds = sum(map(IS_WILD.__getitem__, meld))
            naturals += len(meld) - on_wilds
            if on_wilds >= naturals if strict else on_wilds > naturals:
                continue
            made = naturals + on_wilds >= 7 > len(meld)
        elif naturals >= 3:
            entry, left, made = {"cards": cards}, hand_size - naturals, naturals >= 7
        elif naturals == 2 and kinds:
            entry, left, made = {"cards": [*cards, kinds[-1]]}, hand_size - 3, False
        else:
            continue
        if left <= engine_left:
            _by_engine(deal, seat, entry, legal)
        elif by_shape and (left >= 2 or canasta or (missing == 1 and made)):
            legal.append({"type": "meld", "melds": [entry]})
    if kinds:
        left = hand_size - 1
        for rank, meld in melds.items():
            if rank == "3":
                continue
            if left <= engine_left:
                for wild in kinds:
                    _by_engine(deal, seat, {"rank": rank, "cards": [wild]}, legal)
                continue
            wilds_after = sum(map(IS_WILD.__getitem__, meld)) + 1
            naturals = len(meld) + 1 - wilds_after
            if (
                by_shape
                and wilds_after <= 3
                and (wilds_after < naturals if strict else wilds_after <= naturals)
                and (left >= 2 or canasta or (missing == 1 and len(meld) == 6))
            ):  # every kind of wild alike
                legal += [{"type": "meld", "melds": [{"rank": rank, "cards": [w]}]} for w in kinds]
    if blacks and len(blacks) >= 3:  # R-MELD-4: only while going out, with a canasta
        left = hand_size - len(blacks)
        if left <= engine_left:
            _by_engine(deal, seat, {"cards": blacks}, legal)
        elif by_shape and left <= 1 and canasta and "3" not in melds:
            legal.append({"type": "meld", "melds": [{"cards": blacks}]})
    return legal


def _by_engine(deal: Deal, seat: int, entry: dict[str, Any], legal: list[Action]) -> None:
    """Offers the meld of `entry` when the engine accepts it (the cases no shape decides)."""
    action = {"type": "meld", "melds": [entry]}
    if deal.is_legal(seat, action):
        legal.append(action)


def opening_melds(deal: Deal, seat: int) -> list[dict[str, Any]] | None:
    """Melds from the hand that complete the team's minimum this turn (R-OPEN-2), or None."""
    team = deal.seating.team_of(seat)
    target = deal.minimums[team] - deal.points
    return turn_opening_plan(deal, deal.hands[seat], deal.melds[team], target)
