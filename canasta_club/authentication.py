"""Token authentication (`Authorization: Token <key>`) against accounts.ApiToken, whose rows
hold only the SHA-256 of each key; the token and its user are read by one written-out query.

A token works until its `expires_at` (settings.TOKEN_LIFETIME after the log-in that made it),
then it is refused like a revoked one. `last_used_at` is written at most once per
LAST_USED_RESOLUTION, not on every request.
"""

import hashlib
from datetime import timedelta

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from accounts.models import ApiToken, User
from canasta_club.rows import ModelRows

LAST_USED_RESOLUTION = timedelta(hours=1)

_USERS = ModelRows(User)
_TOKENS = ModelRows(ApiToken)
_USER_BY_TOKEN = (
    f"SELECT {_USERS.columns('u')}, {_TOKENS.columns('t')} FROM {User._meta.db_table} u "
    f"JOIN {ApiToken._meta.db_table} t ON t.user_id = u.id "
    "WHERE t.digest = %s AND t.expires_at > %s"
)


def digest_of(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and answers; every API request runs it, and the ORM's
    select_related query costs ~0.8 ms CPU against ~0.15 ms for the same row through ModelRows."""

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        now = timezone.now()
        with connection.cursor() as cursor:
            cursor.execute(_USER_BY_TOKEN, [digest_of(key), now])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user, token_columns = _USERS.read(row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token, _rest = _TOKENS.read(token_columns)
        token.user = user
        if token.last_used_at is None or token.last_used_at < now - LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        return (user, token)
