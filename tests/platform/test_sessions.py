"""Sessions read from Redis (canasta_club/sessions.py): a signed-in request reads its session
without the database, and whatever ends a session (log-out, a password change, a deactivated
account) counts at once, even against a copy in the cache or a read that raced the log-out."""

from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from canasta_club import sessions
from canasta_club.cache import DegradingRedisCache
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def redis_cache(monkeypatch) -> Iterator[DegradingRedisCache]:
    """The shared cache on this worker's Redis database (the tests' default is local memory)."""
    monkeypatch.setattr(DegradingRedisCache, "_skip_until", 0.0)
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "canasta_club.cache.DegradingRedisCache",
                "LOCATION": settings.CELERY_BROKER_URL,
                "KEY_PREFIX": "test-sessions",
            }
        }
    ):
        cache = caches["default"]
        assert isinstance(cache, DegradingRedisCache)
        yield cache
        cache.clear()


def signed_in(user: User) -> Client:
    client = Client()
    assert client.post("/login/", {"username": user.username, "password": DEFAULT_PASSWORD})
    assert client.get("/profile/").status_code == 200
    return client


def session_key(client: Client) -> str:
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def with_session(key: str) -> Client:
    """Another browser holding the same session cookie."""
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client


def test_a_signed_in_request_reads_its_session_from_the_cache() -> None:
    client = signed_in(UserFactory.create())
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/profile/").status_code == 200
    assert not [query for query in queries if "django_session" in query["sql"]]


def test_a_session_only_in_the_database_is_read_there_and_then_cached(redis_cache) -> None:
    client = signed_in(UserFactory.create())
    redis_cache.delete(sessions.KEY_PREFIX + session_key(client))
    assert client.get("/profile/").status_code == 200
    assert redis_cache.get(sessions.KEY_PREFIX + session_key(client)) is not None


def test_a_log_out_ends_the_session_its_cached_copy_included(redis_cache) -> None:
    client = signed_in(UserFactory.create())
    copy = with_session(session_key(client))
    assert copy.get("/profile/").status_code == 200
    key = sessions.KEY_PREFIX + session_key(client)
    data = redis_cache.get(key)

    assert client.post("/logout/").status_code == 302

    assert copy.get("/profile/").status_code == 302
    # A read that found the session in the database just before the log-out cannot put it back.
    assert redis_cache.add(key, data) is False
    assert copy.get("/profile/").status_code == 302


def test_a_log_out_that_redis_cannot_record_fails_and_ends_nothing(monkeypatch) -> None:
    client = signed_in(UserFactory.create())

    def unreachable(*_args: object, **_kwargs: object) -> None:
        raise redis.ConnectionError("Redis is unreachable")

    monkeypatch.setattr(DegradingRedisCache, "set_or_raise", unreachable)
    with pytest.raises(redis.ConnectionError):
        client.post("/logout/")
    monkeypatch.undo()
    assert with_session(session_key(client)).get("/profile/").status_code == 200


def test_a_password_change_or_a_deactivation_ends_the_cached_sessions() -> None:
    changed, deactivated = UserFactory.create(), UserFactory.create()
    elsewhere = signed_in(changed)
    gone = signed_in(deactivated)

    changed.set_password("another-long-password")
    changed.save()
    User.objects.filter(pk=deactivated.pk).update(is_active=False)

    assert elsewhere.get("/profile/").status_code == 302
    assert gone.get("/profile/").status_code == 302
