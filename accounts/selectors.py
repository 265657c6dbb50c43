"""Accounts' reads."""

from datetime import timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import ApiToken, User
from club import clock

# A player seen within this is in the club now: an open page of theirs asks the server every
# 30 s while it is shown (the bell), so a player with the club on screen stays online.
ONLINE_WITHIN = timedelta(minutes=5)


def active_user(*, user_id: int) -> User | None:
    """An account that is not deactivated, by id (the player of a player card)."""
    return User.objects.filter(pk=user_id, is_active=True).first()


def tokens_of(*, user: User) -> QuerySet[ApiToken]:
    """The user's tokens that still work, newest first."""
    return ApiToken.objects.filter(user=user, expires_at__gt=timezone.now()).order_by(
        "-created_at", "-pk"
    )


def online() -> Q:
    """Players seen within ONLINE_WITHIN (the club's clock): `User.last_seen_at`, which every
    request of theirs keeps (accounts.middleware)."""
    return Q(last_seen_at__gt=clock.now_expression() - ONLINE_WITHIN)


def is_online(*, user: User) -> bool:
    return User.objects.filter(online(), pk=user.pk).exists()


def active_user_by_username(*, username: str) -> User | None:
    """A player by their log-in name, in any case (names are unique regardless of case)."""
    return User.objects.filter(username__iexact=username.strip(), is_active=True).first()
