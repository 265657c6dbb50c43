"""The expert level (мастер): determinized Monte-Carlo search over the club's candidates.

For the decision at hand it lists the club's choice and its likeliest alternatives (draw or
each way of taking the pile; going out or not; melding now or holding back; the safest
discards, a freeze among them), deals the cards the seat has not seen many times consistently
with everything it has seen (`Sight.world`), plays every seat on with the club policy for a few
rounds in each world, and picks the candidate with the best mean margin. The same worlds serve
every candidate, so the comparison is not blurred by the luck of the deal.
"""

from __future__ import annotations

import random

from .cards import VALUE
from .club import Notes, club_action, discard_costs
from .deal import Deal
from .moves import Action
from .sight import Sight
from .strategy import cards_in, house_action, rival_teams, table_points

EXPERT_PLAYOUTS = 64  # rollouts per decision, shared among the candidates
EXPERT_CANDIDATES = 4
EXPERT_HORIZON = 8  # turns played on in each world before it is judged


def expert_action(
    seen: Sight, world: Deal, rng: random.Random, notes: Notes, actions: list[Action]
) -> Action:
    """Determinized Monte-Carlo over the club's strongest candidates."""
    seat = seen.seat
    if len(actions) == 1:
        return actions[0]
    house = house_action(world, seat, actions)
    if house is not None:
        return house
    club = club_action(world, seat, notes, actions)
    candidates = _candidates(world, seat, actions, club, notes)
    if len(candidates) == 1:
        return candidates[0]
    team = world.seating.team_of(seat)
    totals = [0.0] * len(candidates)
    worlds = max(8, EXPERT_PLAYOUTS // len(candidates))
    for _ in range(worlds):
        state = seen.world(rng).to_dict()  # the same hidden cards for every candidate
        for index, action in enumerate(candidates):
            sim = Deal.from_dict(state)
            sim.apply(seat, action)
            totals[index] += _rollout(sim, team)
    best = max(range(len(candidates)), key=lambda i: (totals[i], i == 0))
    return candidates[best]


def _candidates(
    world: Deal, seat: int, actions: list[Action], club: Action, notes: Notes
) -> list[Action]:
    """The club's choice first, then the likeliest alternatives of the same decision: drawing
    or taking the pile, going out or not, melding or holding back, the next safest discards."""
    if world.phase == "draw":
        others = [action for action in actions if action != club]
        return [club, *others[: EXPERT_CANDIDATES - 1]]
    if club["type"] == "undo":
        return [club]
    hand_size = len(world.hands[seat])
    melds = [action for action in actions if action["type"] == "meld" and action != club]
    going_out = [action for action in melds if cards_in(action) >= hand_size - 1]
    costs = discard_costs(world, seat, notes)
    discards = sorted(
        (action for action in actions if action["type"] == "discard" and action != club),
        key=lambda action: costs[action["card"]],
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


def _rollout(sim: Deal, team: int) -> float:
    """Plays every seat on with the club policy for a few turns; the team's margin."""
    turns = 0
    last = sim.turn
    steps = 0
    while sim.phase != "over" and turns < EXPERT_HORIZON and steps < 200:
        seat = sim.to_act
        sim.apply(seat, club_action(sim, seat))
        steps += 1
        if sim.turn != last:
            turns += 1
            last = sim.turn
    rivals = rival_teams(sim.seating, team)
    if sim.result is not None:
        result = sim.result
        return float(result[team]["total"] - max(result[rival]["total"] for rival in rivals))
    return standing(sim, team) - max(standing(sim, rival) for rival in rivals)


def standing(world: Deal, team: int) -> float:
    """A team's expected deal score from here: the table, partial canastas, cards held."""
    points = float(table_points(world, team))
    for cards in world.melds[team].values():
        if 4 <= len(cards) < 7:
            points += 40.0 * (len(cards) - 3)  # a canasta in the making
    for seat in world.seating.teams[team]:
        points -= sum(VALUE[card] for card in world.hands[seat])
    return points
