"""The expert level (мастер): determinized Monte-Carlo search over the club's candidates.

For the decision at hand it lists the club's choice and its likeliest alternatives (draw or
each way of taking the pile; going out or not; melding now or holding back; the safest
discards, a freeze among them), deals the cards the seat has not seen many times consistently
with everything it has seen (`Sight.world`), plays every seat on with the club policy in each
world, each seat remembering what the table saw thrown, passed and taken (`club.Memory`) — to
the end of the deal, or for `EXPERT_HORIZON` turns and then judged by `standing` —
and compares each alternative with the club's choice world by world (the same worlds serve
every candidate, so the luck of the deal cancels). It leaves the club's choice only for an
alternative clearly better over those worlds, and deals more worlds while the best two stay
close, most for the big decisions (the pile, going out), until its rollouts have played
`EXPERT_MOVES` moves (which bounds its time).
"""

from __future__ import annotations

import math
import random

from games.engine import VALUE, WILDS, Action, Deal

from .club import Memory, Notes, discard_costs, memory_of
from .club_level import club_level_action
from .sight import Sight
from .strategy import cards_in, rival_seats, rival_teams, settled, table_points

EXPERT_CANDIDATES = 4
EXPERT_WORLDS = 16  # worlds every decision with alternatives plays
EXPERT_MORE_WORLDS = 8  # worlds added while the best alternative and the club's are close
EXPERT_MAX_WORLDS = 32  # for a small decision
EXPERT_MAX_BIG_WORLDS = 64  # for taking the pile or going out
# Rollout moves a decision may spend before it stops dealing more worlds: one move costs about
# 0.08 ms on one core here, so the slowest decisions stay well inside the second they have.
EXPERT_MOVES = 9000
EXPERT_HORIZON = 24  # turns played on in a world before `standing` judges it
EXPERT_SURE = 1.5  # standard errors by which an alternative must beat the club's choice
EXPERT_GAIN = 10.0  # and points a deal


def expert_action(
    seen: Sight, world: Deal, rng: random.Random, notes: Notes, actions: list[Action]
) -> Action:
    """Determinized Monte-Carlo over the club's strongest candidates."""
    seat = seen.seat
    decided = settled(world, seat, actions)
    if decided is not None:
        return decided
    club = club_level_action(world, seat, notes, actions)
    candidates = _candidates(world, seat, actions, club, notes)
    if len(candidates) == 1:
        return candidates[0]
    team = world.seating.team_of(seat)
    memory = memory_of(seen)
    # gains[i]: the alternative's margin minus the club choice's, world by world.
    gains: list[list[float]] = [[] for _ in candidates]
    alive = list(range(1, len(candidates)))
    limit = EXPERT_MAX_BIG_WORLDS if _big(world, candidates) else EXPERT_MAX_WORLDS
    worlds = moves = 0
    target = EXPERT_WORLDS
    while True:
        while worlds < target and moves < EXPERT_MOVES:
            state = seen.world(rng).to_dict()  # the same hidden cards for every candidate
            base, moves_played = _play_out(state, seat, club, team, memory)
            moves += moves_played
            for index in alive:
                outcome, moves_played = _play_out(state, seat, candidates[index], team, memory)
                moves += moves_played
                gains[index].append(outcome - base)
            worlds += 1
        # Drop the alternatives clearly worse than the club's choice; stop when one is clearly
        # better than the rest or the worlds or the moves run out.
        alive = [index for index in alive if _upper(gains[index]) > 0]
        if not alive or worlds >= limit or moves >= EXPERT_MOVES:
            break
        ranked = sorted(alive, key=lambda index: _mean(gains[index]), reverse=True)
        best = ranked[0]
        if _sure(gains[best]) and (
            len(ranked) == 1 or _mean(gains[best]) - _mean(gains[ranked[1]]) > EXPERT_GAIN
        ):
            break
        target = worlds + EXPERT_MORE_WORLDS
    chosen = [index for index in alive if _sure(gains[index])]
    if not chosen:
        return club
    return candidates[max(chosen, key=lambda index: (_mean(gains[index]), -index))]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _error(values: list[float]) -> float:
    """The standard error of the mean of `values` (unknown from one world)."""
    count = len(values)
    if count < 2:
        return math.inf
    mean = _mean(values)
    spread = sum((value - mean) ** 2 for value in values) / (count - 1)
    return math.sqrt(spread / count)


def _sure(gains: list[float]) -> bool:
    """The alternative beats the club's choice, beyond the noise of the worlds dealt."""
    mean = _mean(gains)
    return mean > EXPERT_GAIN and mean > EXPERT_SURE * _error(gains)


def _upper(gains: list[float]) -> float:
    """An optimistic bound of the alternative's gain (negative: clearly worse)."""
    return _mean(gains) + 2 * _error(gains) + EXPERT_GAIN


def _big(world: Deal, candidates: list[Action]) -> bool:
    """A decision worth more worlds: taking the pile or not, going out or not, a freeze."""
    if world.phase == "draw":
        return len(world.pile) >= 3
    return any(
        action["type"] == "meld" and cards_in(action) >= len(world.hands[world.turn]) - 1
        for action in candidates
    ) or any(action["type"] == "discard" and action["card"] in WILDS for action in candidates)


def _candidates(
    world: Deal, seat: int, actions: list[Action], club: Action, notes: Notes
) -> list[Action]:
    """The club's choice first, then the likeliest alternatives of the same decision: drawing
    or taking the pile, going out or not, melding or holding back, the next safest discards."""
    if world.phase == "draw":
        # Drawing, then the takes that spend the fewest wilds and hand cards.
        others = sorted(
            (action for action in actions if action != club),
            key=lambda action: (
                action["type"] != "draw",
                sum(1 for card in action.get("cards", ()) if card in WILDS),
                len(action.get("cards", ())),
            ),
        )
        return [club, *others[: EXPERT_CANDIDATES - 1]]
    if club["type"] == "undo":
        return [club]
    hand_size = len(world.hands[seat])
    melds = [action for action in actions if action["type"] == "meld" and action != club]
    going_out = [action for action in melds if cards_in(action) >= hand_size - 1]
    costs = discard_costs(world, seat, notes)
    discards = sorted(
        (action for action in actions if action["type"] == "discard" and action != club),
        key=lambda action: costs.get(action["card"], 0.0),
    )
    if club["type"] != "discard":  # a meld: or going out, or holding back and discarding
        return [club, *going_out[:1], *discards[:1]][:EXPERT_CANDIDATES]
    team = world.seating.team_of(seat)
    if not world.opened[team]:
        melds = []  # the club opens whenever it should
    building = sorted(
        (action for action in melds if action not in going_out),
        key=cards_in,
        reverse=True,
    )
    return [club, *going_out[:1], *building[:1], *discards][:EXPERT_CANDIDATES]


def _play_out(
    state: dict, seat: int, action: Action, team: int, memory: Memory
) -> tuple[float, int]:
    sim = Deal.from_dict(state)
    sim.apply(seat, action)
    return _rollout(sim, team, memory)


def _rollout(sim: Deal, team: int, memory: Memory) -> tuple[float, int]:
    """Plays every seat on with the club policy to the end of the deal (or `EXPERT_HORIZON`
    turns, then judged by `standing`), each seat remembering what the table had seen at the
    decision (`memory`); the team's margin over the strongest opponent, and the moves played."""
    turns = 0
    last = sim.turn
    moves = 0
    while sim.phase != "over" and turns < EXPERT_HORIZON and moves < 400:
        seat = sim.to_act
        sim.apply(seat, club_level_action(sim, seat, None, None, memory))
        moves += 1
        if sim.turn != last:
            turns += 1
            last = sim.turn
    rivals = rival_teams(sim.seating, team)
    if sim.result is not None:
        result = sim.result
        margin = float(result[team]["total"] - max(result[rival]["total"] for rival in rivals))
    else:
        margin = standing(sim, team) - max(standing(sim, rival) for rival in rivals)
    return margin, moves


def standing(world: Deal, team: int) -> float:
    """A team's expected deal score from here: the table, its melds' progress toward
    canastas, and the cards its seats hold — material while the deal goes on, points against
    it as the end nears (a short stock, an opponent nearly out)."""
    points = float(table_points(world, team))
    for cards in world.melds[team].values():
        if len(cards) < 7:
            points += _PROGRESS.get(len(cards), 0.0)
    seating = world.seating
    nearest = min(len(world.hands[seat]) for seat in rival_seats(seating, team))
    # How near the end is: an opponent with few cards, more so once its side may go out.
    ready = any(
        sum(1 for cards in world.melds[rival].values() if len(cards) >= 7)
        >= world.rules.canastas_to_go_out
        for rival in rival_teams(seating, team)
    )
    if nearest <= 2 or len(world.stock) < 6:
        ending = 1.0
    else:
        ending = min(1.0, (2.0 if ready else 1.0) / nearest)
    for seat in seating.teams[team]:
        for card in world.hands[seat]:
            worth = 25.0 if card in WILDS else 10.0 if card[0] in world.melds[team] else 4.0
            points += (1 - ending) * worth - ending * VALUE[card]
    return points


# A meld's worth toward its canasta beyond its cards, by length.
_PROGRESS = {4: 40.0, 5: 90.0, 6: 170.0}
