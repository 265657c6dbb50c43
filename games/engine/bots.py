"""Move generator: legal_actions and autoplay (the service plays a timed-out turn with it)."""

from typing import Any

from .cards import BLACK_THREES, VALUE, WILDS
from .deal import Deal
from .errors import IllegalMove
from .moves import Action, legal_actions, opening_melds, pile_takes


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
        takes = pile_takes(sim, seat)
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


def _meld_sensibly(sim: Deal, seat: int, attempt: Any) -> None:
    team = seat % 2
    if not sim.opened[team]:
        plan = opening_melds(sim, seat)
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
