"""Sessions (accounts/sessions.py: Django's database engine, each row naming its user) on the
real PostgreSQL, with Redis as the shared cache as in production: the database is the
sessions' record and every request reads it, so every way Django offers to end a session ends
it at once (issue #32, finding 1)."""

import importlib
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import UpdateError
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.contrib.sessions.models import Session as DjangoSession
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import BrowserSession, User
from accounts.sessions import SessionStore
from club.cache import DegradingRedisCache
from tests.factories import UserFactory
from tests.platform.browsers import is_signed_in, session_key, signed_in, with_session

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def redis_cache(monkeypatch) -> Iterator[DegradingRedisCache]:
    """The shared cache on this worker's Redis database (the tests' default is local memory)."""
    monkeypatch.setattr(DegradingRedisCache, "_skip_until", 0.0)
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "club.cache.DegradingRedisCache",
                "LOCATION": settings.CELERY_BROKER_URL,
                "KEY_PREFIX": "test-sessions",
            }
        }
    ):
        cache = caches["default"]
        assert isinstance(cache, DegradingRedisCache)
        yield cache
        cache.clear()


def test_every_signed_in_request_reads_its_session_row_which_names_the_user() -> None:
    user = UserFactory.create()
    client = signed_in(user)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/profile/").status_code == 200
    assert [query for query in queries if "accounts_browsersession" in query["sql"]]
    assert BrowserSession.objects.get(pk=session_key(client)).user == user


def _delete_by_sql(key: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM accounts_browsersession WHERE session_key = %s", [key])


def _delete_by_orm(key: str) -> None:
    BrowserSession.objects.get(pk=key).delete()


def _expire(key: str) -> None:
    BrowserSession.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))


def _expire_and_clear(key: str) -> None:
    _expire(key)
    call_command("clearsessions")
    assert not BrowserSession.objects.filter(pk=key).exists()


@pytest.mark.parametrize(
    "end",
    [_delete_by_sql, _delete_by_orm, _expire, _expire_and_clear],
    ids=["row deleted by SQL", "row deleted by the ORM", "expire_date past", "clearsessions"],
)
def test_a_session_ends_at_once_however_its_row_goes(end: Callable[[str], None]) -> None:
    client, other = signed_in(UserFactory.create()), signed_in(UserFactory.create())
    copy = with_session(session_key(client))
    assert is_signed_in(copy)

    end(session_key(client))

    assert not is_signed_in(client)
    assert not is_signed_in(copy)
    assert is_signed_in(other)


def test_the_admin_ends_a_users_sessions_in_every_browser() -> None:
    victim, bystander = UserFactory.create(), UserFactory.create()
    phone, laptop, elsewhere = signed_in(victim), signed_in(victim), signed_in(bystander)
    admin = signed_in(UserFactory.create(is_staff=True, is_superuser=True))

    answer = admin.post(
        "/admin/accounts/user/",
        {"action": "end_browser_sessions", "_selected_action": [victim.pk]},
        follow=True,
    )

    assert answer.status_code == 200
    assert "2 session(s) ended." in answer.content.decode()
    assert not is_signed_in(phone)
    assert not is_signed_in(laptop)
    assert is_signed_in(elsewhere)
    assert admin.get("/admin/").status_code == 200
    assert not BrowserSession.objects.filter(user=victim).exists()


def test_a_user_deleted_takes_their_sessions_along() -> None:
    user = UserFactory.create()
    client = signed_in(user)
    user.delete()
    assert not BrowserSession.objects.filter(pk=session_key(client)).exists()
    assert not is_signed_in(client)


def test_a_log_out_ends_the_session_in_every_browser_holding_it() -> None:
    client = signed_in(UserFactory.create())
    copy = with_session(session_key(client))
    assert is_signed_in(copy)

    assert client.post("/logout/").status_code == 302

    assert not is_signed_in(copy)
    assert not BrowserSession.objects.filter(pk=session_key(copy)).exists()


def test_a_request_that_read_the_session_before_the_log_out_cannot_write_it_back() -> None:
    client = signed_in(UserFactory.create())
    key = session_key(client)
    racing = SessionStore(key)
    assert racing.get(SESSION_KEY)  # read before the log-out...
    assert client.post("/logout/").status_code == 302
    racing["language"] = "en"  # ...saved after it
    with pytest.raises(UpdateError):
        racing.save()
    assert not BrowserSession.objects.filter(pk=key).exists()


def test_a_password_change_or_a_deactivation_ends_the_sessions() -> None:
    changed, deactivated = UserFactory.create(), UserFactory.create()
    elsewhere = signed_in(changed)
    gone = signed_in(deactivated)

    changed.set_password("another-long-password")
    changed.save()
    User.objects.filter(pk=deactivated.pk).update(is_active=False)

    assert not is_signed_in(elsewhere)
    assert not is_signed_in(gone)


def test_the_upgrade_moves_the_sessions_signed_in_before_it() -> None:
    """Migration accounts 0010: the sessions in Django's own table keep working in the club's,
    now naming their users; expired ones are dropped."""
    user = UserFactory.create()
    with override_settings(SESSION_ENGINE="django.contrib.sessions.backends.db"):
        before = Client()
        before.force_login(user)  # a session as the engines before wrote it, into django_session
    expired = DjangoSessionStore()
    expired.set_expiry(-1)
    expired.create()
    key = session_key(before)
    assert DjangoSession.objects.count() == 2
    migration = importlib.import_module("accounts.migrations.0010_browser_sessions")

    migration._move(("sessions", "Session"), ("accounts", "BrowserSession"), with_user=True)(
        apps, None
    )

    assert list(BrowserSession.objects.values_list("pk", "user")) == [(key, user.pk)]
    assert not DjangoSession.objects.exists()
    assert is_signed_in(with_session(key))
