"""A frozen copy of the club level as it was before issue 20 (commit a9d3141): the bench's
`oldclub`, which the yardstick must beat by as much as the outside tester did. Do not improve it.
"""

from collections import Counter
from typing import Any

from games.engine.cards import BLACK_THREES, VALUE, WILDS
from games.engine.deal import Deal
from games.engine.house import canasta_opening
from games.engine.moves import legal_actions
from games.players.strategy import ahead, house_action, reaches_minimum, rival_seats

Action = dict[str, Any]


def old_club_action(world: Deal, seat: int, discarded: list[Counter[str]]) -> Action:
    actions = legal_actions(world, seat)
    if len(actions) == 1:
        return actions[0]
    house = house_action(world, seat, actions)
    if house is not None:
        return house
    if world.phase == "draw":
        return _draw(world, seat, actions)
    return _play(world, seat, actions, discarded)


def _draw(world: Deal, seat: int, actions: list[Action]) -> Action:
    takes = [action for action in actions if action["type"] == "take_pile"]
    if not takes:
        return actions[0]
    count = len(world.pile)

    def cost(take: Action) -> tuple[int, int]:
        return sum(1 for card in take["cards"] if card in WILDS), len(take["cards"])

    take = min(takes, key=cost)
    wilds, _ = cost(take)
    team = world.seating.team_of(seat)
    if not world.opened[team] and canasta_opening(world, team):
        return take
    if count >= 3 or (wilds == 0 and (count >= 2 or not take["cards"])) or "melds" in take:
        return take
    return next(action for action in actions if action["type"] == "draw")


def _play(world: Deal, seat: int, actions: list[Action], discarded: list[Counter[str]]) -> Action:
    team = world.seating.team_of(seat)
    hand = world.hands[seat]
    melds = [action for action in actions if action["type"] == "meld"]
    danger = (
        min(len(world.hands[other]) for other in rival_seats(world.seating, team)) <= 3
        or len(world.stock) < 8
    )
    if not world.opened[team]:
        opening = [action for action in melds if reaches_minimum(world, seat, action)]
        if opening:
            return opening[0]
        if any(action["type"] == "undo" for action in actions):
            return {"type": "undo"}
    else:
        goes_out = [action for action in melds if _cards_in(action) >= len(hand) - 1]
        if goes_out and ahead(world, team):
            return max(goes_out, key=_cards_in)
        our = world.melds[team]
        for action in sorted(melds, key=_meld_points, reverse=True):
            entry = action["melds"][0]
            rank = entry.get("rank") or next(c[0] for c in entry["cards"] if c not in WILDS)
            wilds = sum(1 for card in entry["cards"] if card in WILDS)
            length = len(our.get(rank, ())) + len(entry["cards"])
            left = len(hand) - len(entry["cards"])
            if left < 2 and not ahead(world, team):
                continue
            if not wilds:
                return action
            if (length >= 7 and len(our.get(rank, ())) < 7) or danger:
                return action
    discards = [action for action in actions if action["type"] == "discard"]
    if not discards:
        return melds[0] if melds else actions[0]
    keeps = _keeps(world, seat, discarded)
    return min(discards, key=lambda action: keeps[action["card"]])


def _cards_in(action: Action) -> int:
    return sum(len(meld["cards"]) for meld in action["melds"])


def _meld_points(action: Action) -> int:
    return sum(VALUE[card] for meld in action["melds"] for card in meld["cards"])


def _keeps(world: Deal, seat: int, discarded: list[Counter[str]]) -> dict[str, float]:
    seating = world.seating
    team = seating.team_of(seat)
    hand = world.hands[seat]
    nxt = seating.next_seat(seat)
    rivals = seating.team_of(nxt)
    opponents_melds = world.melds[rivals]
    our_melds = world.melds[team]
    pile = len(world.pile)
    frozen = world.frozen or not world.opened[rivals]
    near_out = min(len(world.hands[other]) for other in seating.teams[rivals]) <= 3
    freezes = pile >= 7 and not frozen and world.opened[rivals]
    naturals = Counter(card[0] for card in hand if card not in WILDS)
    thrown = discarded[nxt]
    keeps: dict[str, float] = {}
    for card in hand:
        if card in keeps:
            continue
        if card in WILDS:
            keeps[card] = 40.0 if freezes else 1000.0 + VALUE[card]
            continue
        if card in BLACK_THREES:
            keeps[card] = -50.0
            continue
        rank = card[0]
        keep = 30.0 * min(naturals[rank], 3) + (VALUE[card] if not near_out else -VALUE[card])
        if rank in our_melds:
            keep += 25.0
        if not frozen and rank in opponents_melds:
            keep += 60.0 + 4 * pile
        keep -= 15.0 * min(thrown[rank], 2)
        if not frozen and pile >= 3:
            keep += 2.0 * pile
        keeps[card] = keep
    return keeps
