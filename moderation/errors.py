"""Refusals shared by moderation's services and selectors (both languages: club.i18n)."""

from accounts.models import User
from club import i18n
from club.errors import ClubError, Forbidden, NotFound
from games import errors as game_errors
from games.selectors import may_see
from games.store import Table


def report_not_found() -> NotFound:
    return NotFound("not_found", i18n.text("Жалоба не найдена.", "Report not found."))


def not_a_player_of(table: Table, user: User) -> ClubError:
    """403 `not_a_player`; 404 for a private table the user may not see (it stays unknown)."""
    if not may_see(table=table, viewer=user):
        return game_errors.game_not_found()
    return Forbidden(
        "not_a_player",
        i18n.text("Вы не играли за этим столом.", "You did not play at this table."),
    )
