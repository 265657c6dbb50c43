"""Samba and Bolivia's part of the move generator (`legal_actions`, moves.py): the pile takes
(each meld the top card may join alone, the natural pair; opening: with no, one or two wilds and
the melds of an opening plan) and a useful set of melds: groups and sequences from the hand,
naturals and wilds onto the side's melds, a wild meld (Bolivia), black threes going out.

A side that has not opened is offered an opening plan that reaches the minimum whenever some
set of the hand's melds does (`opening_plan`: exact over the hand's melds, see there), and
each new meld of the hand (a rank's naturals, a suit's longest runs) as a step, since the
engine takes melds below the minimum until an undo (R-SAMBA-UNDO): the openings made of those
melds are reachable one meld at a time.

Melds are judged here from their shape (the engine takes microseconds for each and the
generator runs once a decision); those that leave fewer than two cards, black threes and pile
takes of a side that has not opened go to the engine (`Deal.is_legal`). A property test holds
every offered action legal to the engine.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ...actions import Action
from ...cards import ALL_CODES, BLACK_THREES, JOKER, RED_THREES, SUITS, VALUE, WILDS
from .sequences import CLOSED_AT, GROUP_WILDS, SEQUENCE_ORDER, SEQUENCE_RANKS, WILD_MELD

if TYPE_CHECKING:
    from ...deal import Deal
    from . import Samba

Entry = dict[str, Any]

# A natural of rank 4..A: (rank, suit, its place in a sequence as a bit), looked up once per
# card; a suit's naturals in a hand are a bit mask of their places.
NATURAL: dict[str, tuple[str, str, int]] = {
    code: (code[0], code[1], 1 << SEQUENCE_ORDER[code[0]])
    for code in ALL_CODES
    if code not in WILDS and code[0] in SEQUENCE_ORDER
}


def legal_melds(game: Samba, deal: Deal, seat: int) -> list[Action]:
    """`game.legal_melds`: the melds offered the seat on turn."""
    wild_melds = game.wild_melds  # Bolivia's melds of wild cards
    team = deal.seating.team_of(seat)
    hand = deal.hands[seat]
    opened = deal.opened[team]
    # New melds and additions leaving two cards are legal by their shape (R-SAMBA-GROUP/SEQ,
    # R-BOL-WILD; R-OUT-2); the rest (going out needs the canastas, black threes) the engine
    # judges.
    most = len(hand) - 2
    actions: list[Action] = []
    if opened:
        entries = open_side_melds(deal, team, hand, wild_melds=wild_melds)
    elif deal.undo_used and deal.base:
        entries = []
    else:
        entries, plan = unopened_melds(deal, team, hand, wild_melds=wild_melds)
        if plan:  # legal as planned: new melds reaching the minimum, two cards kept
            actions.append({"type": "meld", "melds": plan})
    for entry in entries:
        action = {"type": "meld", "melds": [entry]}
        cards = entry["cards"]
        # R-MELD-4: black threes only going out, which the engine judges
        if (len(cards) <= most and cards[0] not in BLACK_THREES) or deal.is_legal(seat, action):
            actions.append(action)
    return actions


def unopened_melds(
    deal: Deal, team: int, hand: list[str], *, wild_melds: bool
) -> tuple[list[Entry], list[Entry]]:
    """A side below its minimum (no undo yet): each new meld as a step, and an opening plan
    ([] when the hand's melds cannot reach the minimum). After an undo only the plan counts
    (R-SAMBA-UNDO), so the steps are left out."""
    parts = Parts(hand)
    plan = opening_plan(hand, deal.minimums[team] - deal.points, wild_melds=wild_melds, parts=parts)
    steps = [] if deal.undo_used else new_melds(parts, wild_melds=wild_melds)
    return steps, plan or []


def pile_takes(game: Samba, deal: Deal, seat: int) -> list[Action]:
    """R-SAMBA-PILE: the top card alone onto each meld it may join, and the natural pair (a
    side that has not opened: with no, one or two wilds and an opening plan's melds)."""
    pile = deal.pile
    if not pile:
        return []
    top = pile[-1]
    info = NATURAL.get(top)
    if info is None:  # a wild or a three on top (R-PILE-1/5, R-BOL-PILE)
        return []
    rank, suit, bit = info
    team = deal.seating.team_of(seat)
    opened = deal.opened[team]
    takes: list[Action] = []
    if opened and not deal.frozen:
        for index, (key, meld) in enumerate(deal.melds[team].items()):
            if len(meld) >= CLOSED_AT:
                continue
            first = key[0]
            if first == rank or (first == suit and _joins_at_an_end(_places(meld), bit)):
                takes.append({"type": "take_pile", "cards": [], "meld": index})
    hand = deal.hands[seat]
    pair = []
    for card in hand:
        if card[0] == rank and card not in WILDS:
            pair.append(card)
            if len(pair) == 2:
                break
    if len(pair) == 2:
        if opened:
            takes.append({"type": "take_pile", "cards": pair})
        else:
            takes += _opening_takes(deal, team, hand, pair, top, wild_melds=game.wild_melds)
    if not takes:
        return takes
    if not opened:
        return [take for take in takes if deal.is_legal(seat, take)]
    # An open side's takes are built legal; only R-PILE-3 (cards left after the take and a
    # discard, the pile's other cards joining the hand) is left to the engine.
    kept = len(hand) + len(pile) - 1
    if not RED_THREES.isdisjoint(pile):  # they go to the side's red threes (R-PILE-6)
        kept -= sum(1 for card in pile if card in RED_THREES)
    return [take for take in takes if kept - len(take["cards"]) >= 2 or deal.is_legal(seat, take)]


def _places(meld: list[str]) -> int:
    """A sequence's cards as a bit mask of their places."""
    mask = 0
    for card in meld:
        mask |= NATURAL[card][2]
    return mask


def _joins_at_an_end(places: int, bit: int) -> bool:
    """Whether the place `bit` is just beyond an end of the unbroken run `places`."""
    return not places & bit and bool((places << 1 | places >> 1) & bit)


def _opening_takes(
    deal: Deal, team: int, hand: list[str], pair: list[str], top: str, *, wild_melds: bool
) -> list[Action]:
    """R-OPEN-4: the pair (and no, one or two of the most valuable wilds) with the top card,
    and a plan from the rest of the hand making up the minimum; the pile's other cards join the
    hand, so fewer hand cards are kept back (R-PILE-3)."""
    rest = list(hand)
    for card in pair:
        rest.remove(card)
    wilds = sorted((card for card in rest if card in WILDS), key=VALUE.__getitem__)
    gained = len(deal.pile) - 1 - sum(1 for card in deal.pile if card in RED_THREES)
    keep = max(0, 2 - gained)
    takes: list[Action] = []
    for count in range(min(GROUP_WILDS, len(wilds)) + 1):
        joined = wilds[len(wilds) - count :]
        left = list(rest)
        for card in joined:
            left.remove(card)
        cards = [*pair, *joined]
        short = deal.minimums[team] - VALUE[top] - sum(map(VALUE.__getitem__, cards))
        plan = opening_plan(left, short, wild_melds=wild_melds, keep=keep)
        if plan is not None:
            take: Action = {"type": "take_pile", "cards": cards}
            if plan:
                take["melds"] = plan
            takes.append(take)
            if not plan:
                break  # more wilds only spend cards
    return takes


def open_side_melds(deal: Deal, team: int, hand: list[str], *, wild_melds: bool) -> list[Entry]:
    """The melds worth offering an open side: each new sequence and each new group of a rank
    the side is not already building, the additions to the side's melds (to each sequence and
    wild meld; to one group of each rank), a wild meld, black threes."""
    parts = Parts(hand)
    choices: list[Entry] = []
    wilds = parts.wilds
    # Deuces differ only in suit, which no meld minds: one deuce and one joker are the choices.
    wild_kinds = list({card == JOKER: card for card in wilds}.values()) if wilds else wilds
    # Several groups of a rank (R-SAMBA-GROUP): the hand's naturals and the wilds are offered
    # to the one nearest a canasta that can take them, not to each.
    naturals_to: dict[str, tuple[int, int]] = {}  # rank -> (length, index)
    wilds_to: dict[str, tuple[int, int]] = {}
    naturals = parts.naturals
    suits = parts.suits
    for index, (key, meld) in enumerate(deal.melds[team].items()):
        first = key[0]
        length = len(meld)
        if first in SUITS:
            if length < CLOSED_AT and suits[first]:
                extension = _extension(meld, suits[first], first)
                if extension:
                    choices.append({"meld": index, "cards": extension})
        elif first == WILD_MELD:
            if wilds and length < CLOSED_AT:
                choices.append({"meld": index, "cards": wilds[: CLOSED_AT - length]})
        elif first != "3":
            if first in naturals:
                best = naturals_to.get(first)
                if best is None or (best[0] >= CLOSED_AT > length) or CLOSED_AT > length > best[0]:
                    naturals_to[first] = (length, index)
            if (
                wild_kinds
                and length < CLOSED_AT
                and (first not in wilds_to or length > wilds_to[first][0])
            ):
                on_wilds = 0
                for card in meld:
                    if card in WILDS:
                        on_wilds += 1
                if on_wilds < GROUP_WILDS:
                    wilds_to[first] = (length, index)
    # A new group of a rank is offered only when the side has none of that rank short of a
    # canasta (then its naturals join that one): two groups of a rank serve two canastas.
    growing = {rank for rank, (length, _index) in naturals_to.items() if length < CLOSED_AT}
    for entry in new_melds(parts, wild_melds=wild_melds):
        cards = entry["cards"]
        first, second = cards[0], cards[1]
        if first in WILDS or first[0] not in growing or first[0] != second[0]:
            choices.append(entry)
    for rank, (_length, index) in naturals_to.items():
        choices.append({"meld": index, "cards": naturals[rank]})
    for _length, index in wilds_to.values():
        choices.extend({"meld": index, "cards": [wild]} for wild in wild_kinds)
    if len(parts.blacks) >= 3:
        choices.append({"cards": parts.blacks})
    return choices


class Parts:
    """A hand split once: naturals by rank (and the ranks held twice or more), wilds (cheapest
    first), black threes, and each suit's naturals as a bit mask of their places in a sequence."""

    __slots__ = ("blacks", "naturals", "paired", "suits", "wilds")

    def __init__(self, hand: list[str]) -> None:
        naturals: dict[str, list[str]] = {}
        paired: list[list[str]] = []  # the naturals of each rank held twice or more
        suits = dict.fromkeys(SUITS, 0)
        wilds: list[str] = []
        blacks: list[str] = []
        for card in hand:
            info = NATURAL.get(card)
            if info is None:
                if card in WILDS:
                    wilds.append(card)
                elif card in BLACK_THREES:
                    blacks.append(card)
                continue
            rank, suit, bit = info
            if rank in naturals:
                same_rank = naturals[rank]
                same_rank.append(card)
                if len(same_rank) == 2:
                    paired.append(same_rank)
            else:
                naturals[rank] = [card]
            suits[suit] |= bit
        if len(wilds) > 1:
            wilds.sort(key=VALUE.__getitem__)
        self.naturals = naturals
        self.paired = paired
        self.suits = suits
        self.wilds = wilds
        self.blacks = blacks


def new_melds(parts: Parts, *, wild_melds: bool) -> list[Entry]:
    """New melds from the hand: groups (three or more naturals of a rank, or a pair with its
    cheapest wild), sequences (the longest runs of a suit, at most seven), a wild meld."""
    wilds = parts.wilds
    entries: list[Entry] = []
    for cards in parts.paired:
        if len(cards) >= 3:
            entries.append({"cards": cards})
        elif wilds:
            entries.append({"cards": [*cards, wilds[0]]})
    for suit, places in parts.suits.items():
        if places & places >> 1 & places >> 2:  # three in a row somewhere
            for low, high in _runs(places):
                if high - low >= 2:
                    low = max(low, high - CLOSED_AT + 1)
                    entries.append(
                        {"cards": [SEQUENCE_RANKS[at] + suit for at in range(low, high + 1)]}
                    )
    if wild_melds and len(wilds) >= 3:
        entries.append({"cards": wilds[-CLOSED_AT:]})
    return entries


def _runs(places: int) -> list[tuple[int, int]]:
    """The maximal unbroken runs of the bit mask `places` (lowest and highest place of each)."""
    runs: list[tuple[int, int]] = []
    while places:
        low = (places & -places).bit_length() - 1
        high = low
        while places >> (high + 1) & 1:
            high += 1
        runs.append((low, high))
        places &= -1 << (high + 1)
    return runs


def _extension(meld: list[str], have: int, suit: str) -> list[str]:
    """The hand's naturals of the sequence's suit (`have`, a bit mask of places) that extend it
    at its ends, up to seven cards."""
    places = _places(meld)
    room = CLOSED_AT - len(meld)
    high = places.bit_length() - 1
    low = (places & -places).bit_length() - 1
    added: list[str] = []
    while room:
        if have >> (high + 1) & 1:
            high += 1
            added.append(SEQUENCE_RANKS[high] + suit)
        elif low and have >> (low - 1) & 1:
            low -= 1
            added.append(SEQUENCE_RANKS[low] + suit)
        else:
            break
        room -= 1
    return added


def opening_plan(
    hand: list[str], target: int, *, wild_melds: bool, keep: int = 2, parts: Parts | None = None
) -> list[Entry] | None:
    """New melds from `hand` worth `target` points or more, keeping `keep` cards; [] when
    nothing is missing, None when the hand's melds cannot reach it.

    Complete over the hand's melds: groups (two or more naturals of a rank with up to two
    wilds, several of a rank allowed), sequences (3..7 naturals of a suit in order) and, in
    Bolivia, wild melds (3..7 wilds); if some disjoint set of them reaches `target` leaving
    `keep` cards, a plan is found. A greedy plan first (the most valuable melds, then wilds on
    its groups), else an exact search (`_search`)."""
    if target <= 0:
        return []
    if parts is None:
        parts = Parts(hand)
    room = len(hand) - keep
    candidates = new_melds(parts, wild_melds=wild_melds)
    if not candidates or room < 3:
        return None
    plan = _greedy_plan(hand, candidates, room, target)
    if plan is None:
        plan = _search(hand, room, target, wild_melds=wild_melds)
    return plan


def _greedy_plan(
    hand: list[str], candidates: list[Entry], room: int, target: int
) -> list[Entry] | None:
    """The most valuable melds first, then spare wilds onto its groups."""
    left = Counter(hand)
    plan: list[Entry] = []
    points = 0
    candidates = sorted(candidates, key=lambda entry: -sum(map(VALUE.__getitem__, entry["cards"])))
    for entry in candidates:
        cards = entry["cards"]
        if len(cards) > room:
            continue
        need: Counter[str] = Counter(cards)
        if any(left[card] < count for card, count in need.items()):
            continue
        left.subtract(need)
        room -= len(cards)
        plan.append({"cards": list(cards)})
        points += sum(map(VALUE.__getitem__, cards))
        if points >= target:
            return plan
    spare = sorted((card for card in left.elements() if card in WILDS), key=VALUE.__getitem__)
    for entry in plan:
        cards = entry["cards"]
        if cards[0] in WILDS or cards[0][0] != cards[1][0]:
            continue  # a sequence or a wild meld takes no wild here
        while spare and room > 0 and sum(1 for c in cards if c in WILDS) < GROUP_WILDS:
            wild = spare.pop()
            cards.append(wild)
            room -= 1
            points += VALUE[wild]
        if points >= target:
            return plan
    return None


def _search(hand: list[str], room: int, target: int, *, wild_melds: bool) -> list[Entry] | None:
    """An exact search: every set of disjoint sequences of the hand (depth first, cut off where
    the most valuable cards left could not make up the rest), and for each the most valuable
    groups and wild melds of the cards left (`_best_groups`): a plan reaching `target` with at
    most `room` cards, or None."""
    counts = Counter(hand)
    runs: list[list[str]] = []  # every unbroken run of 3..7 naturals of a suit the hand holds
    for suit in SUITS:
        held = 0
        for rank, place in SEQUENCE_ORDER.items():
            if counts[rank + suit]:
                held |= 1 << place
        for low, high in _runs(held):
            for start in range(low, high - 1):
                for end in range(start + 2, min(high, start + CLOSED_AT - 1) + 1):
                    runs.append([SEQUENCE_RANKS[at] + suit for at in range(start, end + 1)])
    in_runs = {card for run in runs for card in run}
    plan: list[Entry] = []

    def bound(room_left: int) -> int:
        """The most the cards left could add with `room_left` cards (wilds and naturals of a
        rank held twice or in a run)."""
        ranks = Counter(card[0] for card in counts.elements() if card in NATURAL)
        values = sorted(
            (
                VALUE[card]
                for card in counts.elements()
                if card in WILDS or card in in_runs or ranks.get(card[0], 0) >= 2
            ),
            reverse=True,
        )
        return sum(values[:room_left])

    def dive(start: int, room_left: int, points: int) -> bool:
        if points + bound(room_left) < target:
            return False
        groups = _best_groups(counts, room_left, target - points, wild_melds=wild_melds)
        if groups is not None:
            plan.extend(groups)
            return True
        for index in range(start, len(runs)):
            run = runs[index]
            if len(run) > room_left or not all(counts[card] for card in run):
                continue
            counts.subtract(run)
            plan.append({"cards": list(run)})
            if dive(index, room_left - len(run), points + sum(map(VALUE.__getitem__, run))):
                return True
            plan.pop()
            counts.update(run)
        return False

    return plan if dive(0, room, 0) else None


def _best_groups(
    counts: Counter[str], room: int, target: int, *, wild_melds: bool
) -> list[Entry] | None:
    """Groups (and, Bolivia, wild melds) of the cards `counts` worth `target` or more in at
    most `room` cards, or None: a dynamic programme over the ranks, its state the naturals and
    the wilds used, keeping the most natural points (a rank's naturals are worth alike, and
    the most valuable wilds go first)."""
    if target <= 0:
        return []
    wilds = sorted(
        (card for card in counts.elements() if card in WILDS), key=VALUE.__getitem__, reverse=True
    )
    worth = [0]  # worth[w]: the w most valuable wilds
    for card in wilds:
        worth.append(worth[-1] + VALUE[card])
    by_rank: dict[str, list[str]] = {}
    for card in counts.elements():
        if card in NATURAL:
            by_rank.setdefault(card[0], []).append(card)
    # state (naturals, wilds) -> (natural points, the choice per rank so far)
    states: dict[tuple[int, int], tuple[int, tuple[tuple[str, int, int], ...]]] = {(0, 0): (0, ())}
    for rank, cards in by_rank.items():
        if len(cards) < 2:
            continue
        value = VALUE[cards[0]]
        grown = dict(states)
        for (naturals, used), (points, chosen) in states.items():
            for count in range(2, len(cards) + 1):
                if naturals + count + used > room:
                    break
                for joined in range(
                    max(0, 3 - count), min(2 * (count // 2), len(wilds) - used) + 1
                ):
                    key = (naturals + count, used + joined)
                    if key[0] + key[1] > room:
                        break
                    after = points + count * value
                    if key not in grown or grown[key][0] < after:
                        grown[key] = (after, (*chosen, (rank, count, joined)))
        states = grown
    for (naturals, used), (points, chosen) in states.items():
        spare = room - naturals - used
        extra = 0
        if wild_melds and len(wilds) - used >= 3 and spare >= 3:
            extra = min(len(wilds) - used, spare)  # a wild meld of the wilds left
        if points + worth[used + extra] < target or not (chosen or extra):
            continue
        plan: list[Entry] = []
        at = 0  # wilds handed out, the most valuable first
        for rank, count, joined in chosen:
            plan.extend(_split(by_rank[rank][:count], wilds[at : at + joined]))
            at += joined
        left = wilds[at : at + extra]
        while left:  # wild melds of three to seven
            size = len(left) if len(left) <= CLOSED_AT else min(CLOSED_AT, len(left) - 3)
            plan.append({"cards": left[:size]})
            left = left[size:]
        return plan
    return None


def _split(naturals: list[str], wilds: list[str]) -> list[Entry]:
    """Naturals of one rank and wilds as groups of two or more naturals, at most two wilds and
    three or more cards each: as few groups as hold the wilds."""
    groups = max(1, (len(wilds) + 1) // 2)
    entries: list[Entry] = []
    for index in range(groups):
        last = index == groups - 1
        mine = naturals[2 * index :] if last else naturals[2 * index : 2 * index + 2]
        entries.append({"cards": [*mine, *wilds[2 * index : 2 * index + 2]]})
    return entries
