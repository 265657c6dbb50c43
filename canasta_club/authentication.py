"""DRF's token authentication with the token and its user read by one written-out query.

A token works for settings.TOKEN_LIFETIME after it was made (log-in, sign-up, password change);
then it is refused like a revoked one and the next log-in makes a new one, so a token copied
from a client works for a month at most.
"""

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from accounts.models import User
from canasta_club.rows import ModelRows

_USERS = ModelRows(User)
_TOKENS = ModelRows(Token)
_USER_BY_TOKEN = (
    f"SELECT {_USERS.columns('u')}, {_TOKENS.columns('t')} FROM {User._meta.db_table} u "
    f"JOIN {Token._meta.db_table} t ON t.user_id = u.id WHERE t.key = %s AND t.created > %s"
)


class TokenAuthentication(authentication.TokenAuthentication):
    """Same answers as DRF's; every API request runs it, and the ORM's select_related query
    costs ~0.8 ms CPU against ~0.15 ms for the same row read through ModelRows."""

    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        with connection.cursor() as cursor:
            cursor.execute(_USER_BY_TOKEN, [key, timezone.now() - settings.TOKEN_LIFETIME])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user, token_columns = _USERS.read(row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token, _rest = _TOKENS.read(token_columns)
        token.user = user
        return (user, token)
