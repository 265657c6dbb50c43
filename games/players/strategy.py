"""What every bot level reads off a table the same way: the sides, the score standing on the
table, whether going out pays, and the house rules' decisions (asking, answering, laying down).

Each function reads `world`, the deal a bot plays on (built from its seat's view, `sight.py`):
only the seat's own hand and what the table shows are read here, never another hand's cards.
"""

from __future__ import annotations

from games.engine import VALUE, WILDS, Action, Deal, Seating, canasta_kind, red_three_points

# The question of R-HOUSE-ASK (CONTRACT §2's form of the house action).
ASK: Action = {"type": "ask_to_go_out"}


def rival_teams(seating: Seating, team: int) -> list[int]:
    """The opponents: every other team (one at four, two or more at the other tables)."""
    return [other for other in range(len(seating.teams)) if other != team]


def rival_seats(seating: Seating, team: int) -> list[int]:
    return [seat for seat in seating.seats if seating.team_of(seat) != team]


def cards_in(action: Action) -> int:
    return sum(len(meld["cards"]) for meld in action["melds"])


def meld_points(action: Action) -> int:
    return sum(VALUE[card] for meld in action["melds"] for card in meld["cards"])


def uses_wild(action: Action) -> bool:
    return any(card in WILDS for meld in action["melds"] for card in meld["cards"])


def reaches_minimum(world: Deal, seat: int, action: Action) -> bool:
    return world.points + meld_points(action) >= world.minimums[world.seating.team_of(seat)]


def table_points(world: Deal, team: int) -> int:
    """What a team has on the table now, canasta bonuses and red threes included."""
    points = 0
    for cards in world.melds[team].values():
        points += sum(VALUE[card] for card in cards)
        kind = canasta_kind(cards)
        points += 500 if kind == "natural" else 300 if kind == "mixed" else 0
    reds = len(world.red[team])
    points += red_three_points(reds, packs=world.rules.packs) if world.melds[team] else -100 * reds
    return points


def ahead(world: Deal, team: int) -> bool:
    """Going out now pays: the team leads every opponent on the table (its partners' cards
    count against it, the opponents' cards against them), or the deal may end soon anyway."""
    seating = world.seating
    held = [len(hand) * 8 for hand in world.hands]

    def standing(side: int) -> int:
        return table_points(world, side) - sum(held[seat] for seat in seating.teams[side])

    theirs = max(standing(rival) for rival in rival_teams(seating, team))
    return standing(team) + 100 >= theirs or len(world.stock) < 10


def settled(world: Deal, seat: int, actions: list[Action]) -> Action | None:
    """The decision no level weighs: the one action offered, or the house rules' decision
    (`house_action`); None: the level decides."""
    if len(actions) == 1:
        return actions[0]
    return house_action(world, seat, actions)


def house_action(world: Deal, seat: int, actions: list[Action]) -> Action | None:
    """The house rules' decisions, the same at every level (None: the level decides).

    The partner says yes when going out now costs the team little; a partner who went out is
    followed by laying down whenever the cards allow; a player asks when going out is possible
    and its team is ahead, and after yes goes out at once (the plan comes first).
    """
    if seat != world.turn:  # R-HOUSE-ASK: answering
        question = world.question
        if question is not None and "about" in question:  # R-ACABA-ASK: a bot never gives up
            return {"type": "answer_go_out", "yes": False}
        return {"type": "answer_go_out", "yes": _partner_says_yes(world, seat)}
    if world.phase == "partner_out":  # R-HOUSE-DOUBLE
        return actions[0]  # laying down when offered comes before passing
    question = world.question
    if question is not None and question["answer"]:
        return actions[0]
    if ASK in actions and ahead(world, world.seating.team_of(seat)):
        return ASK
    return None


def _partner_says_yes(world: Deal, seat: int) -> bool:
    """Yes when the partner's own hand costs little, can be laid down (R-HOUSE-DOUBLE), or the
    opponents are about to go out or the stock to run out; no while it holds points to meld."""
    seating = world.seating
    team = seating.team_of(seat)
    hand = world.hands[seat]
    if sum(VALUE[card] for card in hand) <= 60:
        return True
    rivals = rival_seats(seating, team)
    if min(len(world.hands[other]) for other in rivals) <= 3 or len(world.stock) < 10:
        return True
    return world.rules.double_going_out and (
        world.variant.lay_down_plan(world.rules, hand, world.melds[team]) is not None
    )
