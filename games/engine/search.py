"""Can the opening minimum still be reached from a hand? (R-UNDO-3; also plans melds for bots.)

An exhaustive search over how many naturals of each rank to meld and how many wilds to add,
bounded by two facts: every card is worth points, and at most two cards must be kept back
(R-OUT-2, R-PILE-3), so a rank that is melded holds back at most two of its naturals.
"""

from __future__ import annotations

from typing import Any

from .cards import BLACK_THREES, NATURAL_RANKS, VALUE, WILDS

# One way to use a place cards can go: (naturals melded, their points, wilds a new pair needs,
# wilds the meld can take (R-MELD-2; -1 when the place stays unused), the meld's length then).
_Choice = tuple[int, int, int, int, int]
# A place cards can go: (rank, naturals of that rank in hand, its choices, best first).
_Slot = tuple[str, list[str], list[_Choice]]
# What the search finds: (wilds melded, the slot made a canasta or -1 or None, blacks melded).
_Found = tuple[int, int | None, bool]

_RANK_VALUE = {rank: VALUE[rank + "S"] for rank in NATURAL_RANKS}


def opening_plan(
    hand: list[str],
    melds: dict[str, list[str]],
    *,
    strict: bool,
    target: int,
    exempt_out: bool = False,
    keep: int = 2,
) -> list[dict[str, Any]] | None:
    """Meld entries (contract form) from `hand`, joining the team's `melds`, worth `target` points.

    The plan leaves at least `keep` (0-2) cards of `hand` unless the team then has a canasta
    (R-OUT-2; a pile take keeps fewer, since the pile's other cards join the hand, R-PILE-3).
    With `exempt_out` (R-OPEN-5 variant) going out with a canasta also succeeds.
    Returns [] when target <= 0 and None when no plan exists.
    """
    if target <= 0:
        return []
    naturals: dict[str, list[str]] = {}
    wilds: list[str] = []
    blacks: list[str] = []
    for card in hand:
        if card in WILDS:
            wilds.append(card)
        elif card[0] == "3":
            if card in BLACK_THREES:
                blacks.append(card)
        elif card[0] in naturals:
            naturals[card[0]].append(card)
        else:
            naturals[card[0]] = [card]
    wild_count = len(wilds)
    black_points = 5 * len(blacks)
    if not exempt_out:  # most hands fall short of the minimum whatever is melded: say so at once
        reachable = black_points
        for wild in wilds:
            reachable += VALUE[wild]
        for rank, in_hand in naturals.items():
            count = len(in_hand)
            if count >= 3 or rank in melds or (count == 2 and wild_count):
                reachable += count * _RANK_VALUE[rank]
        if reachable < target:
            return None
    wilds.sort(key=VALUE.__getitem__, reverse=True)
    prefix = [0]
    for wild in wilds:
        prefix.append(prefix[-1] + VALUE[wild])
    has_canasta = False
    for cards in melds.values():
        if len(cards) >= 7:
            has_canasta = True
            break

    slots: list[_Slot] = []
    weights: list[int] = []
    for rank, cards in melds.items():
        if rank == "3":
            continue
        on_wilds = 0
        for card in cards:
            if card in WILDS:
                on_wilds += 1
        in_hand = naturals.get(rank, [])
        count = len(in_hand)
        counts = [count, count - 1, count - 2, 0] if count >= 3 else list(range(count, -1, -1))
        made = _choices(len(cards) - on_wilds, on_wilds, len(cards), counts, rank, strict)
        if not made:  # no count of naturals makes the meld legal (R-MELD-2)
            return None
        slots.append((rank, in_hand, made))
        weights.append(count * _RANK_VALUE[rank])
    for rank, in_hand in naturals.items():
        count = len(in_hand)
        if count < 2 or rank in melds:
            continue
        counts = [count, count - 1, count - 2, 0] if count >= 4 else [*range(count, 1, -1), 0]
        slots.append((rank, in_hand, _choices(0, 0, 0, counts, rank, strict)))
        weights.append(count * _RANK_VALUE[rank])
    if len(slots) > 1:  # the most valuable ranks first
        order = sorted(range(len(slots)), key=lambda i: -weights[i])
        slots = [slots[i] for i in order]

    slot_count = len(slots)
    suffix = [0] * (slot_count + 1)
    for i in range(slot_count - 1, -1, -1):
        suffix[i] = suffix[i + 1] + slots[i][2][0][1]
    best_extra = prefix[wild_count] + black_points
    hand_size = len(hand)
    black_count = len(blacks)
    chosen: list[_Choice] = [(0, 0, 0, -1, 0)] * slot_count

    def leaf(points: int, required: int, used: int, capacity: int) -> _Found | None:
        for w in range(min(capacity, wild_count), required - 1, -1):
            left = hand_size - used - w
            canasta_slot: int | None = -1 if has_canasta else None
            if not has_canasta:
                spare = w - required
                for i in range(slot_count):
                    _k, _points, need, cap, length = chosen[i]
                    if cap >= 0 and length + min(cap, spare + need) >= 7:
                        canasta_slot = i
                        break
            canasta = canasta_slot is not None
            if left < keep and not canasta:
                continue
            can_black = canasta and black_count >= 3 and left - black_count <= 1
            total = points + prefix[w]
            if total >= target:
                return w, canasta_slot, False
            if can_black and total + black_points >= target:
                return w, canasta_slot, True
            if exempt_out and canasta and (left <= 1 or can_black):
                return w, canasta_slot, can_black and left > 1
            return None
        return None

    def dfs(i: int, points: int, required: int, used: int, capacity: int) -> _Found | None:
        if not exempt_out and points + suffix[i] + best_extra < target:
            return None
        if i == slot_count:
            return leaf(points, required, used, capacity)
        for choice in slots[i][2]:
            k, natural_points, need, cap, _length = choice
            if required + need > wild_count:
                continue
            chosen[i] = choice
            found = dfs(
                i + 1,
                points + natural_points,
                required + need,
                used + k,
                capacity + cap if cap >= 0 else capacity,
            )
            if found is not None:
                return found
        return None

    found = dfs(0, 0, 0, 0, 0)
    if found is None:
        return None
    w, canasta_slot, use_blacks = found
    return _build_plan(slots, chosen, wilds[:w], canasta_slot, blacks if use_blacks else [])


def _choices(
    on_naturals: int, on_wilds: int, on_length: int, counts: list[int], rank: str, strict: bool
) -> list[_Choice]:
    """The slot's choices for each count of naturals to meld, dropping those no wild count
    makes legal (R-MELD-2: a new meld of a pair needs its wild)."""
    value = _RANK_VALUE[rank]
    made: list[_Choice] = []
    for k in counts:
        if on_length == 0 and k == 0:
            made.append((0, 0, 0, -1, 0))
            continue
        naturals = on_naturals + k
        cap = min(3, naturals - 1 if strict else naturals) - on_wilds
        need = 1 if on_length == 0 and k == 2 else 0
        if cap >= need:
            made.append((k, k * value, need, cap, on_length + k))
    return made


def _build_plan(
    slots: list[_Slot],
    chosen: list[_Choice],
    wilds: list[str],
    canasta_slot: int | None,
    blacks: list[str],
) -> list[dict[str, Any]]:
    given: list[list[str]] = [[] for _ in slots]
    for i, choice in enumerate(chosen):
        if choice[2]:
            given[i].append(wilds.pop())  # the cheapest wilds complete pairs
    order = list(range(len(slots)))
    if canasta_slot is not None and canasta_slot >= 0:
        order.remove(canasta_slot)
        order.insert(0, canasta_slot)
    for i in order:
        cap = chosen[i][3]
        while wilds and len(given[i]) < cap:
            given[i].append(wilds.pop(0))
    plan: list[dict[str, Any]] = []
    wild_only: list[dict[str, Any]] = []
    for i, (rank, in_hand, _made) in enumerate(slots):
        k = chosen[i][0]
        if k:
            plan.append({"cards": in_hand[:k] + given[i]})
        elif given[i]:
            wild_only.append({"rank": rank, "cards": given[i]})
    if blacks:
        wild_only.append({"cards": list(blacks)})
    return plan + wild_only
