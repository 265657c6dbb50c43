"""What the moderation services share: the game and its players, the users' row locks,
the audit trail. Run inside the caller's transaction."""

from collections.abc import Iterable

from accounts.models import User
from club import clock, i18n
from club.errors import Conflict
from games import errors as game_errors
from games import selectors as game_selectors
from games.models import Game
from games.store import Table
from moderation import errors
from moderation.models import ModerationAuditEntry, Report


def table_or_404(game_id: int) -> Table:
    table = game_selectors.game_with_seats(game_id=game_id)
    if table is None:
        raise game_errors.game_not_found()
    return table


def seats_of(table: Table) -> dict[int, int]:
    """user_id -> seat number."""
    return {seat.user_id: seat.seat for seat in table.seats}


def require_player(table: Table, seats: dict[int, int], user: User) -> int:
    seat = seats.get(user.pk)
    if seat is None:
        raise errors.not_a_player_of(table, user)
    return seat


def require_game_over(game: Game) -> None:
    if not game.is_over:
        raise Conflict(
            "game_not_over",
            i18n.text("Игра ещё не закончилась.", "The game is not over yet."),
        )


def lock_users(user_ids: Iterable[int]) -> dict[int, User]:
    """Lock the users' rows in id order (no deadlocks between opposite pairs)."""
    users = User.objects.select_for_update(of=("self",)).filter(pk__in=set(user_ids)).order_by("pk")
    return {user.pk: user for user in users}


def audit(*, moderator: User, action: str, report: Report, details: dict | None = None) -> None:
    ModerationAuditEntry.objects.create(
        moderator=moderator,
        action=action,
        report=report,
        details=details or {},
        created_at=clock.now(),
    )
