"""The refusals of the relations between players (both languages)."""

from club.errors import Forbidden, NotFound
from club.i18n import text


def player_not_found() -> NotFound:
    return NotFound("not_found", text("Игрок не найден.", "Player not found."))


def blocked() -> Forbidden:
    """A block keeps two players apart (a seat, an invitation, an afterword). The message names
    nobody: a block is private."""
    return Forbidden(
        "blocked",
        text(
            "Это недоступно: один из вас не хочет играть с другим.",
            "Not possible: one of you does not want to play with the other.",
        ),
    )
