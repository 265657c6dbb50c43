"""`legal_actions` in Samba and Bolivia: every draw and discard, the undo, the pile takes (each
meld the top card may join alone, the natural pair, with the melds of a plan that reaches the
minimum when the side opens) and a useful set of melds: groups and sequences from the hand,
naturals and wilds onto the side's melds, a wild meld (Bolivia), black threes going out.

Each offered meld and take is checked by the engine itself (`Deal.is_legal`), so every offered
action is legal.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .actions import DISCARDS, DRAW, UNDO, Action
from .cards import BLACK_THREES, JOKER, RED_THREES, SUITS, VALUE, WILDS
from .opening import can_undo
from .sequences import CLOSED_AT, GROUP_WILDS, ORDER, WILD_MELD, run_of

if TYPE_CHECKING:
    from .deal import Deal

Entry = dict[str, Any]


def sequence_legal_actions(deal: Deal, seat: int) -> list[Action]:
    """The seat on turn's actions (draw or play phase)."""
    if deal.phase == "draw":
        return [DRAW, *sequence_pile_takes(deal, seat)]
    team = deal.seating.team_of(seat)
    hand = deal.hands[seat]
    opened = deal.opened[team]
    choices = meld_choices(deal, seat)
    if opened:
        # An open side's melds are built legal (R-SAMBA-GROUP/SEQ, R-BOL-WILD), one entry each;
        # R-OUT-1/2 (two cards kept, or going out with the canastas) and black threes are left
        # to the engine.
        most = len(hand) - 2
        actions: list[Action] = []
        for melds in choices:
            cards = melds[0]["cards"]
            if len(cards) <= most and cards[0] not in BLACK_THREES:
                actions.append({"type": "meld", "melds": melds})
            else:
                _offer_if_legal(deal, seat, {"type": "meld", "melds": melds}, actions)
    else:
        actions = []
        for melds in choices:
            _offer_if_legal(deal, seat, {"type": "meld", "melds": melds}, actions)
    if can_undo(deal, seat):
        actions.append(UNDO)
    # A card stays and no minimum is pending (R-OPEN-3): any card goes; else the engine judges.
    if (len(hand) > 1 and (opened or not deal.base)) or deal.is_legal(seat, DISCARDS[hand[0]]):
        actions += map(DISCARDS.__getitem__, dict.fromkeys(hand))
    return actions


def _offer_if_legal(deal: Deal, seat: int, action: Action, actions: list[Action]) -> None:
    if deal.is_legal(seat, action):
        actions.append(action)


def sequence_pile_takes(deal: Deal, seat: int) -> list[Action]:
    """R-SAMBA-PILE: the top card alone onto each meld it may join, and the natural pair (with
    an opening plan's melds when the side has not opened)."""
    pile = deal.pile
    if not pile:
        return []
    top = pile[-1]
    if top in WILDS or top[0] == "3":
        return []
    team = deal.seating.team_of(seat)
    opened = deal.opened[team]
    takes: list[Action] = []
    if opened and not deal.frozen:
        for index, (key, meld) in enumerate(deal.melds[team].items()):
            if len(meld) < CLOSED_AT and (
                key[0] == top[0] or (key[0] == top[1] and run_of([*meld, top]) is not None)
            ):
                takes.append({"type": "take_pile", "cards": [], "meld": index})
    hand = deal.hands[seat]
    pair = [card for card in hand if card[0] == top[0] and card not in WILDS][:2]
    if len(pair) == 2:
        if opened:
            takes.append({"type": "take_pile", "cards": pair})
        else:
            rest = list(hand)
            for card in pair:
                rest.remove(card)
            short = deal.minimums[team] - VALUE[top] - VALUE[pair[0]] - VALUE[pair[1]]
            plan = opening_plan(rest, short, bolivia=deal.rules.game == "bolivia")
            if plan is not None:
                take: Action = {"type": "take_pile", "cards": pair}
                if plan:
                    take["melds"] = plan
                takes.append(take)
    if not opened:
        return [take for take in takes if deal.is_legal(seat, take)]
    # An open side's takes are built legal; only R-PILE-3 (cards left after the take and a
    # discard, the pile's other cards joining the hand) is left to the engine.
    kept = len(hand) + sum(1 for card in pile if card not in RED_THREES) - 1
    return [take for take in takes if kept - len(take["cards"]) >= 2 or deal.is_legal(seat, take)]


def meld_choices(deal: Deal, seat: int) -> list[list[Entry]]:
    """The melds worth offering: an opening plan while the side is below its minimum, else
    each new sequence and each new group of a rank the side is not already building, the
    additions to the side's melds (to each sequence and wild meld; to one group of each rank),
    a wild meld, black threes."""
    team = deal.seating.team_of(seat)
    hand = deal.hands[seat]
    bolivia = deal.rules.game == "bolivia"
    if not deal.opened[team]:
        if deal.undo_used and deal.base:
            return []
        plan = opening_plan(hand, deal.minimums[team] - deal.points, bolivia=bolivia)
        return [plan] if plan else []
    parts = _Parts(hand)
    melds = deal.melds[team]
    choices: list[list[Entry]] = []
    wilds = parts.wilds
    # Deuces differ only in suit, which no meld minds: one deuce and one joker are the choices.
    wild_kinds = list({card == JOKER: card for card in wilds}.values())
    # Several groups of a rank (R-SAMBA-GROUP): the hand's naturals and the wilds are offered
    # to the one nearest a canasta that can take them, not to each.
    naturals_to: dict[str, tuple[int, int]] = {}  # rank -> (length, index)
    wilds_to: dict[str, tuple[int, int]] = {}
    naturals = parts.naturals
    suits = parts.suits
    for index, (key, meld) in enumerate(melds.items()):
        first = key[0]
        length = len(meld)
        if first in SUITS:
            if first in suits and length < CLOSED_AT:
                extension = _extension(meld, suits[first])
                if extension:
                    choices.append([{"meld": index, "cards": extension}])
        elif first == WILD_MELD:
            if wilds and length < CLOSED_AT:
                choices.append([{"meld": index, "cards": wilds[: CLOSED_AT - length]}])
        elif first != "3":
            if first in naturals:
                best = naturals_to.get(first)
                if best is None or (best[0] >= CLOSED_AT > length) or CLOSED_AT > length > best[0]:
                    naturals_to[first] = (length, index)
            if wild_kinds and length < CLOSED_AT and length > wilds_to.get(first, (0, 0))[0]:
                on_wilds = 0
                for card in meld:
                    if card in WILDS:
                        on_wilds += 1
                if on_wilds < GROUP_WILDS:
                    wilds_to[first] = (length, index)
    # A new group of a rank is offered only when the side has none of that rank short of a
    # canasta (then its naturals join that one): two groups of a rank serve two canastas.
    growing = {rank for rank, (length, _index) in naturals_to.items() if length < CLOSED_AT}
    choices.extend(
        [entry] for entry in new_melds(parts, bolivia=bolivia) if _offered(entry, growing)
    )
    for rank, (_length, index) in naturals_to.items():
        choices.append([{"meld": index, "cards": naturals[rank]}])
    for _length, index in wilds_to.values():
        choices.extend([[{"meld": index, "cards": [wild]}] for wild in wild_kinds])
    if len(parts.blacks) >= 3:
        choices.append([{"cards": parts.blacks}])
    return choices


def _offered(entry: Entry, growing: set[str]) -> bool:
    """Not a new group of a rank in `growing` (a sequence or a wild meld always is)."""
    first, second = entry["cards"][0], entry["cards"][1]
    return first in WILDS or first[0] not in growing or first[0] != second[0]


class _Parts:
    """A hand split once: naturals by rank, wilds (cheapest first), black threes, and each
    suit's naturals by their place in a sequence."""

    __slots__ = ("blacks", "naturals", "suits", "wilds")

    def __init__(self, hand: list[str]) -> None:
        naturals: dict[str, list[str]] = {}
        suits: dict[str, dict[int, str]] = {}
        wilds: list[str] = []
        blacks: list[str] = []
        for card in hand:
            if card in WILDS:
                wilds.append(card)
                continue
            rank = card[0]
            if rank == "3":
                if card in BLACK_THREES:
                    blacks.append(card)
                continue
            if rank in naturals:
                naturals[rank].append(card)
            else:
                naturals[rank] = [card]
            suit = card[1]
            if suit in suits:
                suits[suit][ORDER[rank]] = card
            else:
                suits[suit] = {ORDER[rank]: card}
        if len(wilds) > 1:
            wilds.sort(key=VALUE.__getitem__)
        self.naturals = naturals
        self.suits = suits
        self.wilds = wilds
        self.blacks = blacks


def new_melds(parts: _Parts, *, bolivia: bool) -> list[Entry]:
    """New melds from the hand: groups (three or more naturals of a rank, or a pair with its
    cheapest wild), sequences (the longest runs of a suit, at most seven), a wild meld."""
    wilds = parts.wilds
    entries: list[Entry] = []
    for cards in parts.naturals.values():
        if len(cards) >= 3:
            entries.append({"cards": cards})
        elif len(cards) == 2 and wilds:
            entries.append({"cards": [*cards, wilds[0]]})
    for places in parts.suits.values():
        count = len(places)
        if count < 3:
            continue
        ordered = sorted(places)
        start = 0
        for end in range(1, count + 1):
            if end == count or ordered[end] != ordered[end - 1] + 1:
                if end - start >= 3:
                    run = ordered[max(start, end - CLOSED_AT) : end]
                    entries.append({"cards": [places[place] for place in run]})
                start = end
    if bolivia and len(wilds) >= 3:
        entries.append({"cards": wilds[-CLOSED_AT:]})
    return entries


def _extension(meld: list[str], have: dict[int, str]) -> list[str]:
    """The hand's naturals of the sequence's suit (`have`, by place) that extend it at its
    ends, up to seven cards."""
    places = [ORDER[card[0]] for card in meld]
    added: list[str] = []
    room = CLOSED_AT - len(meld)
    low, high = min(places), max(places)
    while room:
        if high + 1 in have:
            high += 1
            added.append(have[high])
        elif low - 1 in have:
            low -= 1
            added.append(have[low])
        else:
            break
        room -= 1
    return added


def opening_plan(
    hand: list[str], target: int, *, bolivia: bool, keep: int = 2
) -> list[Entry] | None:
    """New melds from `hand` worth `target` points or more, keeping `keep` cards: a greedy plan
    (the most valuable melds first, then wilds on its groups); [] when nothing is missing,
    None when no plan is found."""
    if target <= 0:
        return []
    left = Counter(hand)
    room = len(hand) - keep
    plan: list[Entry] = []
    points = 0
    candidates = new_melds(_Parts(hand), bolivia=bolivia)
    candidates.sort(key=lambda entry: -sum(map(VALUE.__getitem__, entry["cards"])))
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
        naturals = [card for card in cards if card not in WILDS]
        if len(set(card[0] for card in naturals)) != 1 or not naturals:
            continue  # a sequence or a wild meld takes no wild here
        while spare and room > 0 and sum(1 for c in cards if c in WILDS) < GROUP_WILDS:
            wild = spare.pop()
            cards.append(wild)
            room -= 1
            points += VALUE[wild]
        if points >= target:
            return plan
    return None
