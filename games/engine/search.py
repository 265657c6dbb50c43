"""Can the opening minimum still be reached from a hand? (R-UNDO-3; also plans melds for bots.)

An exhaustive search over how many naturals of each rank to meld and how many wilds to add,
bounded by two facts: every card is worth points, and at most two cards must be kept back
(R-OUT-2, R-PILE-3), so a rank that is melded holds back at most two of its naturals.
"""

from __future__ import annotations

from typing import Any

from .cards import BLACK_THREES, NATURAL_RANKS, VALUE, WILDS

# A place cards can go: (rank, naturals on table, wilds on table, length on table,
# naturals of that rank in hand, candidate counts of naturals to meld, value of one natural).
_Slot = tuple[str, int, int, int, list[str], list[int], int]

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
    naturals: dict[str, list[str]] = {}
    wilds: list[str] = []
    blacks: list[str] = []
    for card in hand:
        if card in WILDS:
            wilds.append(card)
        elif card[0] == "3":
            if card in BLACK_THREES:
                blacks.append(card)
        else:
            group = naturals.get(card[0])
            if group is None:
                naturals[card[0]] = [card]
            else:
                group.append(card)
    wild_count = len(wilds)
    if not exempt_out:  # most hands fall short of the minimum whatever is melded: say so at once
        reachable = sum(VALUE[wild] for wild in wilds) + 5 * len(blacks)
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
        on_wilds = sum(1 for card in cards if card in WILDS)
        in_hand = naturals.get(rank, [])
        count = len(in_hand)
        options = [count, count - 1, count - 2, 0] if count >= 3 else list(range(count, -1, -1))
        slots.append(
            (rank, len(cards) - on_wilds, on_wilds, len(cards), in_hand, options, _RANK_VALUE[rank])
        )
    for rank, in_hand in naturals.items():
        count = len(in_hand)
        if rank in melds or count < 2:
            continue
        options = [count, count - 1, count - 2, 0] if count >= 4 else [*range(count, 1, -1), 0]
        slots.append((rank, 0, 0, 0, in_hand, options, _RANK_VALUE[rank]))
    slots.sort(key=lambda slot: -slot[6] * len(slot[4]))

    suffix = [0] * (len(slots) + 1)
    for i in range(len(slots) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + slots[i][5][0] * slots[i][6]
    best_extra = prefix[wild_count] + 5 * len(blacks)
    hand_size = len(hand)
    choice = [0] * len(slots)

    def leaf() -> tuple[int, tuple[tuple[int, int], ...] | None, bool] | None:
        required = 0
        used = 0
        natural_points = 0
        caps: list[tuple[int, int, int] | None] = []
        for i, (_rank, on_nat, on_wild, on_len, _cards, _options, value) in enumerate(slots):
            k = choice[i]
            if on_len == 0 and k == 0:
                caps.append(None)
                continue
            nat = on_nat + k
            cap = min(3, nat - 1 if strict else nat) - on_wild
            need = 1 if on_len == 0 and k == 2 else 0
            if cap < need:
                return None
            required += need
            used += k
            natural_points += k * value
            caps.append((cap, need, on_len + k))
        if required > wild_count:
            return None
        capacity = sum(c[0] for c in caps if c is not None)
        costs = _canasta_costs(slots, caps, missing) if missing > 0 else []
        for w in range(min(capacity, wild_count), required - 1, -1):
            left = hand_size - used - w
            total = natural_points + prefix[w]
            made: tuple[tuple[int, int], ...] | None = ()
            if missing > 0:  # the slots that become the missing canastas with the free wilds
                free = w - required
                chosen: list[tuple[int, int]] = []
                for cost, i in costs:
                    if cost <= free:
                        chosen.append((i, cost))
                        free -= cost
                        if len(chosen) == missing:
                            break
                made = tuple(chosen) if len(chosen) == missing else None
            canasta = made is not None
            if left < keep and not canasta:
                continue
            can_black = canasta and len(blacks) >= 3 and left - len(blacks) <= 1
            if total >= target:
                return w, made, False
            if can_black and total + 5 * len(blacks) >= target:
                return w, made, True
            if exempt_out and canasta and (left <= 1 or can_black):
                return w, made, can_black and left > 1
            return None
        return None

    def dfs(
        i: int, so_far: int, required: int
    ) -> tuple[int, tuple[tuple[int, int], ...] | None, bool] | None:
        if required > wild_count:
            return None
        if not exempt_out and so_far + suffix[i] + best_extra < target:
            return None
        if i == len(slots):
            return leaf()
        slot = slots[i]
        for k in slot[5]:
            choice[i] = k
            need = 1 if slot[3] == 0 and k == 2 else 0
            found = dfs(i + 1, so_far + k * slot[6], required + need)
            if found is not None:
                return found
        choice[i] = 0
        return None

    found = dfs(0, 0, 0)
    if found is None:
        return None
    w, made, use_blacks = found
    return _build_plan(slots, choice, wilds[:w], made or (), blacks if use_blacks else [], strict)


def _canasta_costs(
    slots: list[_Slot], caps: list[tuple[int, int, int] | None], missing: int
) -> list[tuple[int, int]]:
    """(wilds beyond the slot's need that make it a canasta, slot) for each slot that can become
    a new canasta; in slot order for one missing canasta, the cheapest first for two (so that
    they share the wilds)."""
    costs = []
    for i, c in enumerate(caps):
        if c is None or slots[i][3] >= 7:
            continue
        cost = 7 - c[2] - c[1]
        if cost < 0:
            cost = 0
        if cost + c[1] <= c[0]:
            costs.append((cost, i))
    if missing > 1:
        costs.sort()
    return costs


def _build_plan(
    slots: list[_Slot],
    choice: list[int],
    wilds: list[str],
    canastas: tuple[tuple[int, int], ...],
    blacks: list[str],
    strict: bool,
) -> list[dict[str, Any]]:
    given: list[list[str]] = [[] for _ in slots]
    caps: list[int] = []
    for i, (_rank, on_nat, on_wild, on_len, _cards, _options, _value) in enumerate(slots):
        k = choice[i]
        if on_len == 0 and k == 0:
            caps.append(0)
            continue
        caps.append(min(3, on_nat + k - 1 if strict else on_nat + k) - on_wild)
        if on_len == 0 and k == 2:
            given[i].append(wilds.pop())  # the cheapest wilds complete pairs
    # The canastas the plan makes first get the wilds that make them, then take more first.
    order = list(range(len(slots)))
    for i, cost in reversed(canastas):
        order.remove(i)
        order.insert(0, i)
        given[i].extend(wilds.pop(0) for _ in range(cost))
    for i in order:
        while wilds and len(given[i]) < caps[i]:
            given[i].append(wilds.pop(0))
    plan: list[dict[str, Any]] = []
    wild_only: list[dict[str, Any]] = []
    for i, slot in enumerate(slots):
        k = choice[i]
        if k:
            plan.append({"cards": slot[4][:k] + given[i]})
        elif given[i]:
            wild_only.append({"rank": slot[0], "cards": given[i]})
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
    kept: list[str | None] = [None]
    if discard:
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
        on_wilds = sum(1 for card in existing if card in WILDS)
        count = len(existing) - on_wilds + len(laid)
        room = min(3, count - 1 if strict else count) - on_wilds
        due = 1 if not existing and len(laid) == 2 else 0
        slots.append((rank, laid, len(existing) + len(laid), room, due))
    for rank, existing in melds.items():
        if rank != "3" and rank not in naturals:
            on_wilds = sum(1 for card in existing if card in WILDS)
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
