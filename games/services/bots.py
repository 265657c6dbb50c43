"""Bots at the club's tables: the players behind bot seats, and a bot's turn computed from what
its seat may see.

A bot is a User with a `bot_level`; a table holds each bot player once, so the club keeps a few
of each level (bot-club-1, bot-club-2, ...). The players (games/players) decide from
the seat's view and the deal's move log as that seat sees it; this module reads that log from
the database. The deadline sweep plays bot seats' turns (after `settings.BOT_PAUSE`) and
timed-out turns (the club level) through it.
"""

from collections.abc import Collection
from typing import Any

from django.contrib.auth.hashers import make_password

from accounts.models import User
from games.engine import Match
from games.models import Game, Move
from games.players import LEVEL_NAMES, play_turn

TIMEOUT_LEVEL = "club"


def free_bot(*, level: str, besides: Collection[int]) -> User:
    """A bot player of `level` that is not one of the users `besides` (made on first need; it
    can never log in). A person who took such a username is passed over."""
    russian = LEVEL_NAMES[level][0]
    number = 1
    while True:
        bot, _ = User.objects.get_or_create(
            username=f"bot-{level}-{number}",
            defaults={
                "display_name": f"Бот «{russian}» {number}",
                "bot_level": level,
                "password": make_password(None),
            },
        )
        if bot.bot_level == level and bot.pk not in besides:
            return bot
        number += 1


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
