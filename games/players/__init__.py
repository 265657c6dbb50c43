"""The players: bots at three levels that decide from a seat's view and its move log only, as a
person at the table would, through the engine's public face (`games.engine`) alone; the engine
knows no player (tests/players/test_players_layout.py holds both to it).

`next_action` and `play_turn` are a bot's move and turn at a table, `decide` its choice from a
view and a log, `autoplay` the beginner's turn; `LEVELS` and their names; `sight` and
`log_entry`: what a seat knows, and a move as a seat sees it in the log.
"""

from .levels import LEVEL_NAMES, LEVELS, autoplay, decide, next_action, play_turn
from .sight import LogEntry, Sight, log_entry, sight

__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "LogEntry",
    "Sight",
    "autoplay",
    "decide",
    "log_entry",
    "next_action",
    "play_turn",
    "sight",
]
