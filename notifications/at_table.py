"""Who is at a game's table: the one thing notifications asks of the app that seats players.

notifications never imports games (it knows users, and of games only their ids). The games app
registers its reader here when it is ready (games/apps.py); the drain asks it which recipients
have the game's table open, to spare them what they see there and every push.
"""

from typing import Protocol


class PlayersAtTable(Protocol):
    def __call__(self, *, pairs: set[tuple[int, int]]) -> set[tuple[int, int]]:
        """Of these (game id, user id) pairs, those whose player has the table open."""
        ...


_readers: list[PlayersAtTable] = []


def register(reader: PlayersAtTable) -> None:
    """The app that seats players tells how to read who is at a table (once, at start-up)."""
    _readers[:] = [reader]


def players_at_table(*, pairs: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Of these (game id, user id) pairs, those at the table; none while no app seats players."""
    if not _readers or not pairs:
        return set()
    return _readers[0](pairs=pairs)
