"""The beginner level (новичок): gentle, human-like, never absurd.

Takes the pile when it can (with a wild only for a pile worth it), opens when it can, melds its
naturals at once (spreading its hand, as beginners do), discards its least useful card and
keeps its wilds.
"""

from __future__ import annotations

from collections import Counter

from games.engine import BLACK_THREES, VALUE, WILDS, Action, Deal

from .strategy import reaches_minimum, rival_teams, settled, uses_wild


def beginner_action(world: Deal, seat: int, actions: list[Action]) -> Action:
    """The beginner's choice among `actions`."""
    decided = settled(world, seat, actions)
    if decided is not None:
        return decided
    if world.phase == "draw":
        takes = [action for action in actions if action["type"] == "take_pile"]
        natural = [take for take in takes if not any(c in WILDS for c in take["cards"])]
        if natural:
            return natural[0]
        if takes and (len(world.pile) >= 4 or not any(a["type"] == "draw" for a in actions)):
            return takes[0]
        return next((action for action in actions if action["type"] == "draw"), actions[0])
    melds = [action for action in actions if action["type"] == "meld"]
    team = world.seating.team_of(seat)
    plain = [action for action in melds if not uses_wild(action)]
    if not world.opened[team]:
        opening = [action for action in melds if reaches_minimum(world, seat, action)]
        if opening:
            return opening[0]
        if any(action["type"] == "undo" for action in actions):
            return {"type": "undo"}
    elif plain:
        return plain[0]
    discards = [action for action in actions if action["type"] == "discard"]
    if not discards:
        return melds[0] if melds else actions[0]
    counts = Counter(card[0] for card in world.hands[seat])
    opponents = {rank for other in rival_teams(world.seating, team) for rank in world.melds[other]}

    def keep(card: str) -> int:
        if card in WILDS:
            return 1000 + VALUE[card]
        if card in BLACK_THREES:
            return -100
        return counts[card[0]] * 40 + VALUE[card] + (60 if card[0] in opponents else 0)

    return min(discards, key=lambda action: keep(action["card"]))
