"""The club level at every game: its play of each (`CLUB_LEVEL`, one for each game of the engine),
for the club level's own turns and the expert's rollouts."""

from __future__ import annotations

from typing import Protocol

from games.engine import Action, Deal

from .club import Memory, Notes, club_action
from .samba import sequence_club_action


class ClubLevel(Protocol):
    def __call__(
        self,
        world: Deal,
        seat: int,
        notes: Notes | None,
        actions: list[Action] | None,
        *,
        memory: Memory | None,
    ) -> Action: ...


# The club level's play of each game.
CLUB_LEVEL: dict[str, ClubLevel] = {
    "classic": club_action,
    "samba": sequence_club_action,
    "bolivia": sequence_club_action,
}


def club_level_action(
    world: Deal,
    seat: int,
    notes: Notes | None,
    actions: list[Action] | None,
    memory: Memory | None = None,
) -> Action:
    """The club level's choice at any table: its play of the table's game (`notes`, `actions`:
    worked out from `world` and `memory` when not given)."""
    return CLUB_LEVEL[world.rules.game](world, seat, notes, actions, memory=memory)
