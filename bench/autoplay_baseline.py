"""A frozen copy of the timeout autoplay as it was before the bots (issue 12): the baseline of
bench/bots.py. Not used by the club; do not improve it.
"""

from typing import Any

from games.engine.cards import BLACK_THREES, VALUE, WILDS
from games.engine.deal import Deal
from games.engine.errors import IllegalMove
from games.engine.variants.classic.search import opening_plan

Action = dict[str, Any]


def legal_actions(deal: Deal, seat: int) -> list[Action]:
    """Every legal draw, pile take and discard, undo, and a useful set of legal melds."""
    if deal.phase == "over" or seat != deal.turn:
        return []
    if deal.phase == "draw":
        candidates: list[Action] = [{"type": "draw"}, *_take_candidates(deal, seat)]
    else:
        candidates = [*_meld_candidates(deal, seat), {"type": "undo"}]
        distinct = dict.fromkeys(deal.hands[seat])
        candidates += [{"type": "discard", "card": card} for card in distinct]
    return [action for action in candidates if deal.is_legal(seat, action)]


def autoplay(deal: Deal, seat: int) -> list[Action]:
    """Actions that, applied in order, finish `seat`'s current turn legally; `deal` is untouched.

    Plays on a copy (the deal is deterministic, so the copy meets the same cards): take the
    pile when it can, else draw; complete or open the minimum when possible (undo when the
    minimum cannot be completed); meld naturals; discard the least useful card.
    """
    if deal.phase == "over" or seat != deal.turn:
        return []
    sim = Deal.from_dict(deal.to_dict())
    actions: list[Action] = []

    def attempt(action: Action) -> bool:
        try:
            sim.apply(seat, action)
        except IllegalMove:
            return False
        actions.append(action)
        return True

    if sim.phase == "draw":
        takes = [a for a in _take_candidates(sim, seat) if sim.is_legal(seat, a)]
        if not (takes and attempt(takes[0])):
            attempt({"type": "draw"})
    if sim.phase == "play":
        _meld_sensibly(sim, seat, attempt)
    if sim.phase == "play":
        _discard_sensibly(sim, seat, attempt)
    if sim.phase == "play":  # a last resort; the rules guarantee some legal way to end the turn
        for action in legal_actions(sim, seat):
            if action["type"] in ("discard", "undo") and attempt(action) and sim.phase != "play":
                break
            if sim.phase == "play" and action["type"] == "undo":
                _discard_sensibly(sim, seat, attempt)
                if sim.phase != "play":
                    break
    return actions


def _take_candidates(deal: Deal, seat: int) -> list[Action]:
    pile = deal.pile
    if not pile:
        return []
    top = pile[-1]
    if top in WILDS or top[0] == "3":
        return []
    rank = top[0]
    team = seat % 2
    hand = deal.hands[seat]
    naturals = [card for card in hand if card not in WILDS and card[0] == rank]
    bases: list[list[str]] = []
    if len(naturals) >= 2:
        bases.append(naturals[:2])
    if naturals:
        bases.extend([naturals[0], wild] for wild in dict.fromkeys(c for c in hand if c in WILDS))
    if rank in deal.melds[team]:
        bases.append([])
    if deal.opened[team]:
        return [{"type": "take_pile", "cards": base} for base in bases]
    takes: list[Action] = []
    for base in bases:
        rest = list(hand)
        for card in base:
            rest.remove(card)
        plan = opening_plan(
            rest,
            {rank: [top, *base]},
            strict=deal.rules.strict_wilds,
            target=deal.minimums[team] - VALUE[top] - sum(VALUE[card] for card in base),
        )
        if plan is not None:
            takes.append({"type": "take_pile", "cards": base, "melds": plan})
    return takes


def _meld_candidates(deal: Deal, seat: int) -> list[Action]:
    team = seat % 2
    hand = deal.hands[seat]
    melds = deal.melds[team]
    candidates: list[Action] = []
    if not deal.opened[team]:
        plan = _opening(deal, seat)
        if plan:
            candidates.append({"type": "meld", "melds": plan})
    naturals: dict[str, list[str]] = {}
    for card in hand:
        if card not in WILDS and card[0] != "3":
            naturals.setdefault(card[0], []).append(card)
    wild_kinds = list(dict.fromkeys(card for card in hand if card in WILDS))
    for rank, cards in naturals.items():
        if rank in melds or len(cards) >= 3:
            candidates.append({"type": "meld", "melds": [{"cards": cards}]})
        elif len(cards) == 2 and wild_kinds:
            candidates.append({"type": "meld", "melds": [{"cards": [*cards, wild_kinds[-1]]}]})
    for rank in melds:
        for wild in wild_kinds:
            candidates.append({"type": "meld", "melds": [{"rank": rank, "cards": [wild]}]})
    blacks = [card for card in hand if card in BLACK_THREES]
    if len(blacks) >= 3:
        candidates.append({"type": "meld", "melds": [{"cards": blacks}]})
    return candidates


def _opening(deal: Deal, seat: int) -> list[dict[str, Any]] | None:
    team = seat % 2
    return opening_plan(
        deal.hands[seat],
        deal.melds[team],
        strict=deal.rules.strict_wilds,
        target=deal.minimums[team] - deal.points,
        exempt_out=deal.rules.concealed_out_skips_minimum and deal.drew == "stock",
    )


def _meld_sensibly(sim: Deal, seat: int, attempt: Any) -> None:
    team = seat % 2
    if not sim.opened[team]:
        plan = _opening(sim, seat)
        if plan:
            attempt({"type": "meld", "melds": plan})
        if sim.phase == "play" and not sim.opened[team] and sim.base:
            attempt({"type": "undo"})
        return
    hand = sim.hands[seat]
    melds = sim.melds[team]
    naturals: dict[str, list[str]] = {}
    for card in hand:
        if card not in WILDS and card[0] != "3":
            naturals.setdefault(card[0], []).append(card)
    entries = [
        {"cards": cards} for rank, cards in naturals.items() if rank in melds or len(cards) >= 3
    ]
    if entries and not attempt({"type": "meld", "melds": entries}):
        for entry in entries:
            if sim.phase != "play":
                break
            attempt({"type": "meld", "melds": [entry]})


def _discard_sensibly(sim: Deal, seat: int, attempt: Any) -> None:
    hand = sim.hands[seat]
    counts: dict[str, int] = {}
    for card in hand:
        counts[card[0]] = counts.get(card[0], 0) + 1
    opponents = sim.melds[(seat + 1) % 2]

    def keep_score(card: str) -> int:
        if card in WILDS:
            return 1000 + VALUE[card]  # wilds freeze the pile; keep them for melds
        if card in BLACK_THREES:
            return -100  # blocks the pile for the next player
        return counts[card[0]] * 40 + VALUE[card] + (60 if card[0] in opponents else 0)

    for card in sorted(dict.fromkeys(hand), key=keep_score):
        if attempt({"type": "discard", "card": card}):
            return
    if sim.undo_available(seat) and attempt({"type": "undo"}):
        for card in sorted(dict.fromkeys(sim.hands[seat]), key=keep_score):
            if attempt({"type": "discard", "card": card}):
                return
