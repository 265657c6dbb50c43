"""Token authentication (`Authorization: Token <key>`) against accounts.ApiToken, whose rows
hold only the SHA-256 of each key.

A token works until its `expires_at` (settings.TOKEN_LIFETIME after the log-in that made it),
then it is refused like a revoked one. `last_used_at` is written at most once per
LAST_USED_RESOLUTION, not on every request. The token and its user are read from the shared
cache when it has them (accounts/token_cache.py: revocations, expiries and changes to the user
count at once).
"""

import hashlib
from datetime import timedelta
from typing import cast

from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts import token_cache
from accounts.models import ApiToken, User
from club.i18n import text

LAST_USED_RESOLUTION = timedelta(hours=1)


def digest_of(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and answers, with the token found by its digest and the expiry
    checked in the same query as the token's user."""

    request: Request | None = None

    def authenticate(self, request: Request) -> tuple[User, ApiToken] | None:
        # DRF makes an authenticator per request; the cache's read may count it (token_cache).
        self.request = request
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        now = timezone.now()
        digest = digest_of(key)
        lookup = token_cache.cached(digest, request=self.request)
        if lookup.entry is not None:
            user, token = lookup.entry
            if token.expires_at > now and user.is_active:
                return user, token
        try:
            token = ApiToken.objects.select_related("user").get(digest=digest, expires_at__gt=now)
        except ApiToken.DoesNotExist:
            raise exceptions.AuthenticationFailed(
                text("Недействительный токен.", "Invalid token.")
            ) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(
                text("Пользователь неактивен или удален.", "User inactive or deleted.")
            )
        if token.last_used_at is None or token.last_used_at < now - LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        token_cache.remember(digest, token, now=now, lookup=lookup)
        return (token.user, token)


def request_user(request: Request) -> User:
    """The caller of a view that requires authentication (so never AnonymousUser)."""
    return cast(User, request.user)
