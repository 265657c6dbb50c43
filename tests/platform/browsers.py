"""Browsers signed in through the log-in page, and others holding the same session cookie (the
session tests on PostgreSQL, with Redis up or stopped)."""

from django.conf import settings
from django.test import Client

from accounts.models import User
from tests.factories import DEFAULT_PASSWORD


def signed_in(user: User, password: str = DEFAULT_PASSWORD) -> Client:
    client = Client()
    answer = client.post("/login/", {"username": user.username, "password": password})
    assert answer.status_code == 302
    assert client.get("/profile/").status_code == 200
    return client


def session_key(client: Client) -> str:
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def with_session(key: str) -> Client:
    """Another browser holding the same session cookie."""
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client


def is_signed_in(client: Client) -> bool:
    """The profile answers (else it sends the browser to the log-in page)."""
    answer = client.get("/profile/")
    assert answer.status_code in (200, 302)
    return answer.status_code == 200
