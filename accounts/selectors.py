"""Accounts' reads."""

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import ApiToken, User


def tokens_of(*, user: User) -> QuerySet[ApiToken]:
    """The user's tokens that still work, newest first."""
    return ApiToken.objects.filter(user=user, expires_at__gt=timezone.now()).order_by(
        "-created_at", "-pk"
    )
