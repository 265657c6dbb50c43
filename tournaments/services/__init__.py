"""Tournament writes, the one way to call them: opening one, entries, the start, the sweep that
pairs rounds, plays out overdue games and ends the event.

Entry points (create_tournament, join_tournament, leave_tournament, start_tournament, and each
unit of sweep_tournaments) run one durable transaction each; the `*_locked` helpers run inside
their caller's, on a tournament it locked.
"""

from tournaments.services.entries import (
    MAX_ENTRIES,
    MAX_ROUNDS,
    TournamentSpec,
    create_tournament,
    join_tournament,
    leave_tournament,
    minimum_entries,
)
from tournaments.services.pacing import start_tournament, sweep_tournaments

__all__ = [
    "MAX_ENTRIES",
    "MAX_ROUNDS",
    "TournamentSpec",
    "create_tournament",
    "join_tournament",
    "leave_tournament",
    "minimum_entries",
    "start_tournament",
    "sweep_tournaments",
]
