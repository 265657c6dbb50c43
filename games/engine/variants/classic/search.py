"""Can the opening minimum still be reached from a hand? (R-UNDO-3; also plans melds for bots.)

An exhaustive search over how many naturals of each rank to meld and how many wilds to add,
bounded by two facts: every card is worth points, and at most two cards must be kept back
(R-OUT-2, R-PILE-3), so a rank that is melded holds back at most two of its naturals.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...cards import BLACK_THREES, IS_WILD, NATURAL_RANKS, VALUE, WILDS, meld_groups

# One way to use a place cards can go: (naturals melded, their points, wilds a new pair needs,
# wilds the meld can take (R-MELD-2; -1 when the place stays unused), the meld's length then).
_Choice = tuple[int, int, int, int, int]
# A place cards can go: (rank, naturals of that rank in hand, its choices, best first).
_Slot = tuple[str, list[str], list[_Choice]]
# What the search finds: (wilds melded, the (slot, wilds it takes to be one) of each canasta
# the plan must make, or None when it makes too few, blacks melded).
_Found = tuple[int, tuple[tuple[int, int], ...] | None, bool]

_RANK_VALUE = {rank: VALUE[rank + "S"] for rank in NATURAL_RANKS}


def opening_plan(
    hand: list[str],
    melds: dict[str, list[str]],
    *,
    strict: bool,
    target: int,
    exempt_out: bool = False,
    keep: int = 2,
    canastas: int = 1,
) -> list[dict[str, Any]] | None:
    """Meld entries (contract form) from `hand`, joining the team's `melds`, worth `target` points.

    The plan leaves at least `keep` (0-2) cards of `hand` unless the team then has the
    `canastas` going out needs (R-OUT-2; a pile take keeps fewer, since the pile's other cards
    join the hand, R-PILE-3). With `exempt_out` (R-OPEN-5 variant) going out with them also
    succeeds.
    Returns [] when target <= 0 and None when no plan exists.
    """
    if target <= 0:
        return []
    naturals = meld_groups(hand)
    wilds = naturals.pop("*", [])
    blacks = [card for card in naturals.pop("3", ()) if card in BLACK_THREES]
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
    missing = canastas  # canastas the plan must still make to leave fewer than `keep` cards
    for cards in melds.values():
        if len(cards) >= 7:
            missing -= 1

    slots: list[_Slot] = []
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
    for rank, in_hand in naturals.items():
        count = len(in_hand)
        if count < 2 or rank in melds:
            continue
        slots.append((rank, in_hand, _new_meld_choices(count, rank, strict)))
    if len(slots) > 1:  # the most valuable ranks first
        slots.sort(key=_slot_weight, reverse=True)

    slot_count = len(slots)
    suffix = [0] * (slot_count + 1)
    for i in range(slot_count - 1, -1, -1):
        suffix[i] = suffix[i + 1] + slots[i][2][0][1]
    best_extra = prefix[wild_count] + black_points
    hand_size = len(hand)
    black_count = len(blacks)
    chosen: list[_Choice] = [(0, 0, 0, -1, 0)] * slot_count

    def leaf(points: int, required: int, used: int, capacity: int) -> _Found | None:
        costs = _canasta_costs(chosen, missing) if missing > 0 else []
        for w in range(min(capacity, wild_count), required - 1, -1):
            left = hand_size - used - w
            made: tuple[tuple[int, int], ...] | None = ()
            if missing > 0:  # the slots that become the missing canastas with the free wilds
                free = w - required
                picked: list[tuple[int, int]] = []
                for cost, i in costs:
                    if cost <= free:
                        picked.append((i, cost))
                        free -= cost
                        if len(picked) == missing:
                            break
                made = tuple(picked) if len(picked) == missing else None
            canasta = made is not None
            if left < keep and not canasta:
                continue
            can_black = canasta and black_count >= 3 and left - black_count <= 1
            total = points + prefix[w]
            if total >= target:
                return w, made, False
            if can_black and total + black_points >= target:
                return w, made, True
            if exempt_out and canasta and (left <= 1 or can_black):
                return w, made, can_black and left > 1
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
    w, new_canastas, use_blacks = found
    return _build_plan(slots, chosen, wilds[:w], new_canastas or (), blacks if use_blacks else [])


def _canasta_costs(chosen: list[_Choice], missing: int) -> list[tuple[int, int]]:
    """(wilds beyond the slot's need that make it a canasta, slot) for each slot that can become
    a new canasta; in slot order for one missing canasta, the cheapest first for two (so that
    they share the wilds)."""
    costs = []
    for i, (k, _points, need, cap, length) in enumerate(chosen):
        if cap < 0 or length - k >= 7:  # unused, or a canasta on the table already
            continue
        cost = 7 - length - need
        if cost < 0:
            cost = 0
        if cost + need <= cap:
            costs.append((cost, i))
    if missing > 1:
        costs.sort()
    return costs


def _slot_weight(slot: _Slot) -> int:
    return len(slot[1]) * _RANK_VALUE[slot[0]]


@cache
def _new_meld_choices(count: int, rank: str, strict: bool) -> list[_Choice]:
    """The choices of a rank with `count` naturals in hand and no meld (shared: not changed)."""
    counts = [count, count - 1, count - 2, 0] if count >= 4 else [*range(count, 1, -1), 0]
    return _choices(0, 0, 0, counts, rank, strict)


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
    canastas: tuple[tuple[int, int], ...],
    blacks: list[str],
) -> list[dict[str, Any]]:
    given: list[list[str]] = [[] for _ in slots]
    for i, choice in enumerate(chosen):
        if choice[2]:
            given[i].append(wilds.pop())  # the cheapest wilds complete pairs
    # The canastas the plan makes first get the wilds that make them, then take more first.
    order = list(range(len(slots)))
    for i, cost in reversed(canastas):
        order.remove(i)
        order.insert(0, i)
        given[i].extend(wilds.pop(0) for _ in range(cost))
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


def going_out_plan(
    hand: list[str],
    melds: dict[str, list[str]],
    *,
    strict: bool,
    canastas: int,
    points: int,
    discard: bool = True,
) -> tuple[list[dict[str, Any]], str | None] | None:
    """Meld entries (contract form) that lay the whole of `hand`, or all of it but one card to
    discard, on and beside the team's `melds` (R-OUT-1), so that the team then has `canastas`
    canastas and the melded cards are worth `points`.

    Returns (entries, the card to discard or None), or None when the hand cannot go out.
    Exact: a natural's rank is laid whole or not at all, so only the card kept back for the
    discard is chosen; wilds go first to the melds nearest a canasta (R-HOUSE-ASK, R-HOUSE-DOUBLE).
    """
    total = sum(VALUE[card] for card in hand)
    # A lone natural of a rank the team has not melded can only be the discard (R-MELD-1/2):
    # two of them and the hand cannot go out, one and it is the only card worth keeping back.
    counts: dict[str, int] = {}
    for code in hand:
        if code not in WILDS and code[0] != "3":
            counts[code[0]] = counts.get(code[0], 0) + 1
    lone = [rank for rank, count in counts.items() if count == 1 and rank not in melds]
    if len(lone) > 1 or (lone and not discard):
        return None
    kept: list[str | None] = [None]
    if lone:
        kept = [next(code for code in hand if code[0] == lone[0] and code not in WILDS)]
    elif discard:
        cheapest_first: list[str] = sorted(dict.fromkeys(hand), key=VALUE.__getitem__)
        kept.extend(cheapest_first)
    for card in kept:
        cards = list(hand)
        if card is not None:
            cards.remove(card)
            if total - VALUE[card] < points:
                continue
        elif total < points:
            continue
        entries = _lay_all(cards, melds, strict=strict, canastas=canastas)
        if entries is not None:
            return entries, card
    return None


def _lay_all(
    cards: list[str], melds: dict[str, list[str]], *, strict: bool, canastas: int
) -> list[dict[str, Any]] | None:
    """Entries laying every one of `cards`, with `canastas` canastas afterwards, or None."""
    naturals: dict[str, list[str]] = {}
    wilds: list[str] = []
    blacks: list[str] = []
    for card in cards:
        if card in WILDS:
            wilds.append(card)
        elif card[0] == "3":
            blacks.append(card)  # red threes never stay in a hand
        else:
            naturals.setdefault(card[0], []).append(card)
    if blacks and (len(blacks) < 3 or "3" in melds):  # R-MELD-4
        return None
    # Each meld the cards reach: [rank, naturals laid, length before wilds, wild room, wilds due].
    slots: list[tuple[str, list[str], int, int, int]] = []
    for rank, laid in naturals.items():
        existing = melds.get(rank, [])
        if not existing and len(laid) < 2:
            return None  # a lone natural makes no meld (R-MELD-1/2)
        on_wilds = sum(map(IS_WILD.__getitem__, existing))
        count = len(existing) - on_wilds + len(laid)
        room = min(3, count - 1 if strict else count) - on_wilds
        due = 1 if not existing and len(laid) == 2 else 0
        slots.append((rank, laid, len(existing) + len(laid), room, due))
    for rank, existing in melds.items():
        if rank != "3" and rank not in naturals:
            on_wilds = sum(map(IS_WILD.__getitem__, existing))
            count = len(existing) - on_wilds
            room = min(3, count - 1 if strict else count) - on_wilds
            slots.append((rank, [], len(existing), room, 0))
    due_total = sum(slot[4] for slot in slots)
    if not due_total <= len(wilds) <= sum(max(slot[3], 0) for slot in slots):
        return None
    given = [slot[4] for slot in slots]
    spare = len(wilds) - due_total
    made = 0
    # The cheapest canastas first: most canastas for the spare wilds.
    for i in sorted(range(len(slots)), key=lambda i: 7 - slots[i][2] - slots[i][4]):
        short = max(0, 7 - slots[i][2] - given[i])
        if short <= slots[i][3] - given[i] and short <= spare:
            given[i] += short
            spare -= short
            made += 1
    if made < canastas:
        return None
    for i, slot in enumerate(slots):
        extra = min(spare, slot[3] - given[i])
        given[i] += extra
        spare -= extra
    entries: list[dict[str, Any]] = []
    wild_only: list[dict[str, Any]] = []
    for (rank, laid, _length, _room, _due), count in zip(slots, given, strict=True):
        added = [wilds.pop() for _ in range(count)]
        if laid:
            entries.append({"cards": laid + added})
        elif added:
            wild_only.append({"rank": rank, "cards": added})
    if blacks:
        wild_only.append({"cards": blacks})
    return entries + wild_only
