"""The levels: bots that decide from what their seat may see.

Fair by construction: `decide(view, log, rules=..., level=..., seed=...)` takes the seat's view
(`Deal.view(seat)`) and the deal's move log as that seat sees it, never a `Deal`. From those it
rebuilds what the seat knows (`sight.py`); cards it cannot know are dealt at random from the
cards it has not seen, by `seed`, into a whole deal the levels play on.

- *beginner* (новичок, `beginner.py`): gentle and simple, never absurd.
- *club* (клуб, `club.py`; at Samba and Bolivia `samba.py`, each game's in `club_level.py`):
  classic strategy: hand management, safe discards from what the table shows, freezing the
  pile, going out when ahead.
- *expert* (мастер, `expert.py`): determinized Monte-Carlo over the club's candidates, the
  club policy as rollouts.

`next_action(deal, seat, ...)` is a bot's next action at a real table: it gives the bot the
seat's view and log only; `play_turn` drives a bot through a whole turn on a copy of the deal;
the service's timeout autoplay uses the club level through it. `autoplay` is the beginner's
turn.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Action, Deal, Rules, legal_actions

from .beginner import beginner_action
from .club import notes_of
from .club_level import club_level_action
from .expert import expert_action
from .sight import LogEntry, log_entry, sight

LEVELS = ("beginner", "club", "expert")
# The names players see (club.i18n order: Russian, English).
LEVEL_NAMES = {
    "beginner": ("новичок", "beginner"),
    "club": ("клуб", "club"),
    "expert": ("мастер", "expert"),
}


def decide(
    view: dict[str, Any],
    log: list[LogEntry],
    *,
    rules: Rules,
    level: str,
    seed: int,
    offered: list[Action] | None = None,
) -> Action:
    """The next action of the seat whose view this is (it must be its turn).

    Depends on nothing but its arguments: the same view, log, rules, level and seed give the
    same action, whatever the cards the seat cannot see. `offered`: the actions to choose
    among (default: those legal in the deal the bot imagines from its view).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    seen = sight(view, log, rules=rules)
    rng = random.Random(seed)
    world = seen.world(rng)
    seat = seen.seat
    actions = legal_actions(world, seat) if offered is None else offered
    if level == "beginner":
        return beginner_action(world, seat, actions)
    notes = notes_of(seen)
    if level == "club":
        return club_level_action(world, seat, notes, actions)
    return expert_action(seen, world, rng, notes, actions)


def next_action(deal: Deal, seat: int, *, level: str, log: list[LogEntry], seed: int) -> Action:
    """A bot's next action at the table `deal` (untouched), from `seat`'s view and `log` only.

    A move the bot chose in the deal it imagines can be refused at the table when a card it
    could not see decides it (a red three covered in the pile at the deal, R-PILE-3/6). Then it
    chooses again, still from its view alone, among the actions the table offers its seat —
    what a player's page lists, and learns by trying.
    """
    view = deal.view(seat)
    action = decide(view, log, rules=deal.rules, level=level, seed=seed)
    if deal.is_legal(seat, action):
        return action
    offered = legal_actions(deal, seat)
    return decide(view, log, rules=deal.rules, level=level, seed=seed, offered=offered)


def play_turn(deal: Deal, seat: int, *, level: str, log: list[LogEntry], seed: int) -> list[Action]:
    """Actions that finish `seat`'s turn as a bot of `level` plays it; `deal` is untouched.

    `log` is the deal's log as `seat` sees it so far. The bot sits at a copy of the deal, which
    only answers its moves (a drawn card arrives in its view, as at the real table).
    """
    table = Deal.from_dict(deal.to_dict())
    seen_log = list(log)
    actions: list[Action] = []
    step = 0
    while table.phase != "over" and table.to_act == seat:
        action = next_action(table, seat, level=level, log=seen_log, seed=seed + step)
        event = table.apply(seat, action)
        actions.append(action)
        seen_log.append(log_entry(seat, action, event, viewer=seat))
        step += 1
    return actions


def autoplay(deal: Deal, seat: int) -> list[Action]:
    """The beginner's turn for `seat` (actions applied in order finish it); `deal` is untouched.

    Plays on a copy, where a drawn card arrives as at the table.
    """
    if deal.phase == "over" or seat != deal.to_act:
        return []
    sim = Deal.from_dict(deal.to_dict())
    actions: list[Action] = []
    while sim.phase != "over" and sim.to_act == seat:
        action = beginner_action(sim, seat, legal_actions(sim, seat))
        sim.apply(seat, action)
        actions.append(action)
    return actions
