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
from .cards import BLACK_THREES, SUITS, VALUE, WILDS
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
    actions = [{"type": "meld", "melds": melds} for melds in meld_choices(deal, seat)]
    actions = [action for action in actions if deal.is_legal(seat, action)]
    if can_undo(deal, seat):
        actions.append(UNDO)
    hand = deal.hands[seat]
    # A card stays and no minimum is pending (R-OPEN-3): any card goes; else the engine judges.
    opened = deal.opened[team]
    if (len(hand) > 1 and (opened or not deal.base)) or deal.is_legal(seat, DISCARDS[hand[0]]):
        actions += map(DISCARDS.__getitem__, dict.fromkeys(hand))
    return actions


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
    return [take for take in takes if deal.is_legal(seat, take)]


def meld_choices(deal: Deal, seat: int) -> list[list[Entry]]:
    """The melds worth offering: an opening plan while the side is below its minimum, else
    each new group and sequence, each addition to the side's melds, a wild meld, black threes."""
    team = deal.seating.team_of(seat)
    hand = deal.hands[seat]
    bolivia = deal.rules.game == "bolivia"
    if not deal.opened[team]:
        if deal.undo_used and deal.base:
            return []
        plan = opening_plan(hand, deal.minimums[team] - deal.points, bolivia=bolivia)
        return [plan] if plan else []
    choices: list[list[Entry]] = [[entry] for entry in new_melds(hand, bolivia=bolivia)]
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        if card not in WILDS and card[0] != "3":
            by_rank.setdefault(card[0], []).append(card)
    wild_kinds = list(dict.fromkeys(card for card in hand if card in WILDS))
    for index, (key, meld) in enumerate(deal.melds[team].items()):
        first = key[0]
        if first in SUITS:
            extension = _extension(meld, hand)
            if extension:
                choices.append([{"meld": index, "cards": extension}])
        elif first == WILD_MELD:
            room = CLOSED_AT - len(meld)
            wilds = [card for card in hand if card in WILDS][:room]
            if wilds:
                choices.append([{"meld": index, "cards": wilds}])
        elif first != "3":
            if first in by_rank:
                choices.append([{"meld": index, "cards": by_rank[first]}])
            on_wilds = sum(1 for card in meld if card in WILDS)
            if len(meld) < CLOSED_AT and on_wilds < GROUP_WILDS:
                choices.extend([{"meld": index, "cards": [wild]}] for wild in wild_kinds)
    blacks = [card for card in hand if card in BLACK_THREES]
    if len(blacks) >= 3:
        choices.append([{"cards": blacks}])
    return choices


def new_melds(hand: list[str], *, bolivia: bool) -> list[Entry]:
    """New melds from the hand, best first: groups (three or more naturals of a rank, or a
    pair with a wild), sequences (the longest runs of a suit, at most seven), a wild meld."""
    naturals: dict[str, list[str]] = {}
    wilds: list[str] = []
    for card in hand:
        if card in WILDS:
            wilds.append(card)
        elif card[0] != "3":
            naturals.setdefault(card[0], []).append(card)
    wilds.sort(key=VALUE.__getitem__)
    entries: list[Entry] = []
    for cards in naturals.values():
        if len(cards) >= 3:
            entries.append({"cards": list(cards)})
        elif len(cards) == 2 and wilds:
            entries.append({"cards": [*cards, wilds[0]]})
    entries.extend({"cards": run} for run in runs_in(hand))
    if bolivia and len(wilds) >= 3:
        entries.append({"cards": wilds[-CLOSED_AT:]})
    entries.sort(key=lambda entry: -sum(map(VALUE.__getitem__, entry["cards"])))
    return entries


def runs_in(hand: list[str]) -> list[list[str]]:
    """The maximal runs of three or more of one suit in the hand (the top seven of a longer)."""
    by_suit: dict[str, dict[int, str]] = {}
    for card in hand:
        place = ORDER.get(card[0])
        if place is not None and card not in WILDS:
            by_suit.setdefault(card[1], {})[place] = card
    runs: list[list[str]] = []
    for places in by_suit.values():
        chunk: list[int] = []
        for place in sorted(places):
            if chunk and place != chunk[-1] + 1:
                if len(chunk) >= 3:
                    runs.append([places[p] for p in chunk[-CLOSED_AT:]])
                chunk = []
            chunk.append(place)
        if len(chunk) >= 3:
            runs.append([places[p] for p in chunk[-CLOSED_AT:]])
    return runs


def _extension(meld: list[str], hand: list[str]) -> list[str]:
    """The hand's cards that extend a sequence at its ends, up to seven cards."""
    suit = meld[0][1]
    places = {ORDER[card[0]] for card in meld}
    have = {ORDER[card[0]]: card for card in hand if card[1] == suit and card[0] in ORDER}
    have = {place: card for place, card in have.items() if card not in WILDS}
    added: list[str] = []
    low, high = min(places), max(places)
    while len(meld) + len(added) < CLOSED_AT and (high + 1 in have or low - 1 in have):
        if high + 1 in have:
            high += 1
            added.append(have[high])
        else:
            low -= 1
            added.append(have[low])
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
    for entry in new_melds(hand, bolivia=bolivia):
        cards = entry["cards"]
        need: Counter[str] = Counter(cards)
        if len(cards) > room or need - left:
            continue
        left -= need
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
