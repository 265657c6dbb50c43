"""Accounts' reads."""

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import ApiToken, User


def active_user(*, user_id: int) -> User | None:
    """An account that is not deactivated, by id (the player of a player card)."""
    return User.objects.filter(pk=user_id, is_active=True).first()


def tokens_of(*, user: User) -> QuerySet[ApiToken]:
    """The user's tokens that still work, newest first."""
    return ApiToken.objects.filter(user=user, expires_at__gt=timezone.now()).order_by(
        "-created_at", "-pk"
    )
