"""The tournaments' refusals that several services raise."""

from club.errors import Conflict, Forbidden, Invalid, NotFound
from club.i18n import text


def tournament_not_found() -> NotFound:
    return NotFound("not_found", text("Нет такого турнира.", "No such tournament."))


def not_open() -> Conflict:
    return Conflict(
        "tournament_not_open",
        text(
            "Турнир уже начался (или закончился): войти в него или выйти уже нельзя.",
            "The tournament has started (or is over): entries can no longer change.",
        ),
    )


def bot_cannot_enter() -> Invalid:
    return Invalid(
        "invalid_partner",
        text("Боты в турнирах не участвуют.", "Bots do not enter tournaments."),
    )


def not_creator() -> Forbidden:
    return Forbidden(
        "not_creator",
        text(
            "Начать турнир может только тот, кто его открыл.",
            "Only the player who opened the tournament may start it.",
        ),
    )
