"""The one authentication backend: Django's, behind the failed log-in limits (login_limits)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import login_limits
from accounts.models import User


class LimitedModelBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        if login_limits.retry_after(request=request, username=username) is not None:
            # Stops authenticate() at once: no other backend, and no password hashing.
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            login_limits.record_failure(request=request, username=username)
        else:
            login_limits.record_success(request=request, username=username)
        return user
