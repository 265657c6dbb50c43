"""Redis gone: log-in, sign-up, password reset and the public figures still answer (issue #11,
finding 4); throttles and the log-in limits degrade, the failure is logged and /api/health/ says
the cache is down. On a private redis-server that this test starts on its own port and kills."""

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

from canasta_club.cache import DegradingRedisCache
from tests.factories import DEFAULT_PASSWORD, UserFactory

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
        "BACKEND": "canasta_club.cache.DegradingRedisCache",
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
    with caplog.at_level(logging.WARNING, logger="canasta_club.cache"):
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
