"""Redis gone: log-in, sign-up, password reset and the public figures still answer (issue #11,
finding 4); throttles and the log-in limits degrade, the failure is logged and /api/health/ says
the cache is down. Log-out, a log-in from a signed-in browser and a session made stale by a
password change answer as they do with Redis up (issue #32, finding 2). On a private
redis-server that this test starts on its own port and kills."""

import logging
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis
from django.test import override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import BrowserSession
from club.cache import DegradingRedisCache
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.platform.browsers import is_signed_in, session_key, signed_in, with_session

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def private_redis(monkeypatch) -> Iterator[subprocess.Popen[bytes]]:
    # The process-wide skip and log pacing start afresh (an earlier test may have set them).
    monkeypatch.setattr(DegradingRedisCache, "_skip_until", 0.0)
    monkeypatch.setattr(DegradingRedisCache, "_last_logged", 0.0)
    port = _free_port()
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                server.kill()
                raise
            time.sleep(0.05)
    cache = {
        "BACKEND": "club.cache.DegradingRedisCache",
        "LOCATION": f"redis://127.0.0.1:{port}/0",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    limits = {
        "address_failures": 20,
        "account_failures": 5,
        "window_seconds": 900,
        "backoff_max_seconds": 300,
        "known_address_days": 30,
    }
    with override_settings(CACHES={"default": cache}, LOGIN_LIMITS=limits):
        yield server
    server.kill()
    server.wait()


@pytest.fixture
def throttled(monkeypatch):
    # DRF reads the rates once, at import; the test settings switch every scope off.
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {
            "anon": "100/min",
            "user": "100/min",
            "auth": "100/min",
            "register": "100/hour",
            "password_reset": "100/hour",
        },
    )


def _requests(client: APIClient, user) -> dict[str, int]:
    return {
        "token": client.post(
            "/api/auth/token/",
            {"username": user.username, "password": DEFAULT_PASSWORD},
            format="json",
        ).status_code,
        "register": client.post(
            "/api/auth/register/",
            {
                "username": f"new_{user.username}",
                "password": "queen-of-spades-7",
                "email": f"new_{user.username}@example.com",
            },
            format="json",
        ).status_code,
        "reset": client.post(
            "/api/auth/password/reset/", {"email": user.email}, format="json"
        ).status_code,
        "mood": client.get("/api/club/mood/").status_code,
    }


@pytest.mark.usefixtures("throttled")
def test_with_redis_gone_people_still_log_in_and_health_says_so(private_redis, caplog):
    client = APIClient()
    up = UserFactory()
    assert _requests(client, up) == {"token": 200, "register": 201, "reset": 202, "mood": 200}
    health = client.get("/api/health/").json()
    assert health["cache"] == {"ok": True}

    private_redis.kill()
    private_redis.wait()
    down = UserFactory()
    with caplog.at_level(logging.WARNING, logger="club.cache"):
        assert _requests(client, down) == {
            "token": 200,
            "register": 201,
            "reset": 202,
            "mood": 200,
        }

    assert any("Cache unavailable" in record.message for record in caplog.records)
    # The first failure spares the next requests the cache's timeout for a while...
    assert DegradingRedisCache._skip_until > time.monotonic()
    # ...but the health check always asks Redis.
    response = client.get("/api/health/")
    assert response.status_code == 503
    assert response.json()["cache"] == {"ok": False}


def test_the_log_in_limits_count_in_redis(private_redis):
    user = UserFactory.create()
    body = {"username": user.username, "password": "wrong"}
    codes = [
        APIClient()
        .post("/api/auth/token/", body, format="json", REMOTE_ADDR=f"10.9.0.{n}")
        .status_code
        for n in range(7)
    ]

    # Five free failures for the account, then the backoff, from any address.
    assert codes == [400] * 5 + [429, 429]


# Sessions with Redis gone (issue #32, finding 2): the session engine reads and writes only the
# database (accounts/sessions.py), so ending a session needs no Redis; the log-in limits and
# throttles on the same paths degrade.


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.kill()
    server.wait()


def test_with_redis_gone_a_log_out_is_recorded(private_redis):
    user = UserFactory.create()
    client = signed_in(user)
    copy = with_session(session_key(client))
    _stop(private_redis)

    answer = client.post("/logout/")

    assert answer.status_code == 302
    assert not is_signed_in(copy)
    assert not BrowserSession.objects.filter(user=user).exists()


def test_with_redis_gone_a_signed_in_browser_logs_in_afresh(private_redis):
    user = UserFactory.create()
    client = signed_in(user)
    before = session_key(client)
    _stop(private_redis)

    assert client.get("/login/").status_code == 200
    answer = client.post("/login/", {"username": user.username, "password": DEFAULT_PASSWORD})

    assert answer.status_code == 302
    assert session_key(client) != before
    assert is_signed_in(client)
    assert not is_signed_in(with_session(before))
    assert list(BrowserSession.objects.filter(user=user).values_list("pk", flat=True)) == [
        session_key(client)
    ]


@pytest.mark.usefixtures("throttled")
def test_with_redis_gone_a_session_made_stale_by_a_password_change_is_signed_out(private_redis):
    user = UserFactory.create()
    stale = signed_in(user)
    token = (
        APIClient()
        .post(
            "/api/auth/token/",
            {"username": user.username, "password": DEFAULT_PASSWORD},
            format="json",
        )
        .json()["token"]
    )
    _stop(private_redis)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    changed = api.post(
        "/api/auth/password/change/",
        {"old_password": DEFAULT_PASSWORD, "new_password": "another-long-passphrase-3"},
        format="json",
    )
    assert changed.status_code == 200

    answer = stale.get("/profile/")

    assert answer.status_code == 302
    assert answer.headers["Location"].startswith("/login/")
    assert stale.get("/").status_code == 200
    # A fresh log-in with the new password works, Redis still gone.
    assert is_signed_in(signed_in(user, "another-long-passphrase-3"))
