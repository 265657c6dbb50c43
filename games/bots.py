"""Bots at the club's tables: a bot's turn computed from what its seat may see.

The engine's bots (games/engine/bots.py) decide from the seat's view and the deal's move log as
that seat sees it; this module reads that log from the database. The deadline sweep plays a
timed-out turn with the club level through it.
"""

from typing import Any

from games.engine import Match
from games.engine.bots import play_turn
from games.models import Game, Move

TIMEOUT_LEVEL = "club"


def seat_log(*, game: Game, deal_number: int, seat: int) -> list[dict[str, Any]]:
    """The deal's moves as `seat` sees them (its own private events, the others' public ones)."""
    rows = (
        Move.objects.filter(game=game, deal_number=deal_number)
        .order_by("seq")
        .values_list("seat", "action", "public", "private")
    )
    return [
        {
            "seat": mover,
            "action": action,
            "public": public,
            "private": private if mover == seat else None,
        }
        for mover, action, public, private in rows
    ]


def decision_seed(game: Game) -> int:
    """Bots are deterministic: the same game at the same version gets the same decisions."""
    return game.pk * 1_000_003 + game.version


def bot_turn(*, game: Game, match: Match, seat: int, level: str) -> list[dict[str, Any]]:
    """The actions a bot of `level` plays to finish `seat`'s current turn (nothing is applied)."""
    log = seat_log(game=game, deal_number=match.deal_number, seat=seat)
    return play_turn(match.deal, seat, level=level, log=log, seed=decision_seed(game))
