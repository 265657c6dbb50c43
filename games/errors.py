"""The games' refusals, shared by their services, selectors and views (both languages)."""

from club.errors import Conflict, Forbidden, Invalid, NotFound
from club.i18n import text
from games.engine import IllegalMove
from games.illegal_moves import words


class IllegalMoveRefused(Invalid):
    """The engine refused the move: its IllegalMove code, and its message in the caller's
    language."""

    def __init__(self, refusal: IllegalMove):
        super().__init__(refusal.code, text(*words(refusal)))
        # The rule the refusal enforces: the page links it to the rules page's paragraph.
        self.rule = refusal.rule


def game_not_found() -> NotFound:
    return NotFound("not_found", text("Игра не найдена.", "Game not found."))


def not_seated() -> Forbidden:
    return Forbidden(
        "not_seated", text("Вы не сидите за этим столом.", "You have no seat at this table.")
    )


def game_not_active() -> Conflict:
    return Conflict("game_not_active", text("Игра не идёт.", "The game is not in progress."))
