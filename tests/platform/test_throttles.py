"""Throttles on every view, keyed on the real client address (issue #11, findings 1 and 6)."""

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.authentication import digest_of
from accounts.models import ApiToken
from accounts.services import issue_token
from club.cache import DegradingRedisCache
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def rates(monkeypatch):
    # DRF reads the rates once, at import; the test settings switch every scope off.
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {
            "anon": "3/min",
            "user": "5/min",
            "auth": "20/min",
            "register": "2/hour",
            "password_reset": "2/hour",
        },
    )
    cache.clear()
    yield
    cache.clear()


def test_a_user_guessing_invite_codes_is_throttled():
    game = GameFactory.create(private=True, invite_code="secret")
    client = APIClient()
    client.force_authenticate(UserFactory.create())

    codes = [
        client.post(
            f"/api/games/{game.pk}/join/", {"seat": 1, "invite_code": f"guess{n}"}, format="json"
        ).status_code
        for n in range(7)
    ]

    assert codes[5:] == [429, 429]
    assert 429 not in codes[:5]


def test_anonymous_requests_are_throttled_per_address():
    codes = [
        APIClient().get("/api/club/mood/", REMOTE_ADDR="10.0.0.1").status_code for _ in range(4)
    ]

    assert codes == [200, 200, 200, 429]
    assert APIClient().get("/api/club/mood/", REMOTE_ADDR="10.0.0.2").status_code == 200


def test_a_made_up_forwarded_address_per_request_is_the_same_client():
    codes = [
        APIClient()
        .post(
            "/api/auth/password/reset/",
            {"email": "someone@example.com"},
            format="json",
            REMOTE_ADDR="10.0.0.3",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        )
        .status_code
        for n in range(3)
    ]

    assert codes == [202, 202, 429]


@override_settings(NUM_PROXIES=1)
def test_behind_our_proxy_each_client_counts_apart():
    def reset(client_address: str) -> int:
        return (
            APIClient()
            .post(
                "/api/auth/password/reset/",
                {"email": "someone@example.com"},
                format="json",
                REMOTE_ADDR="127.0.0.1",
                HTTP_X_FORWARDED_FOR=f"6.6.6.6, {client_address}",
            )
            .status_code
        )

    assert [reset("198.51.100.1") for _ in range(3)] == [202, 202, 429]
    assert reset("198.51.100.2") == 202


def test_sign_up_has_its_own_tight_scope():
    # Sign-up answers email_taken: the scope keeps it from being a fast way to test emails.
    def sign_up(n: int) -> int:
        body = {"username": f"u{n}", "password": "queen-of-spades-7", "email": f"u{n}@ex.com"}
        return APIClient().post("/api/auth/register/", body, format="json").status_code

    assert [sign_up(n) for n in range(3)] == [201, 201, 429]


def test_on_redis_the_same_limits_hold_per_account_and_per_address(redis_cache):
    client = APIClient()
    client.force_authenticate(UserFactory.create())
    other = APIClient()
    other.force_authenticate(UserFactory.create())

    codes = [client.get("/api/club/mood/").status_code for _ in range(7)]
    assert codes == [200] * 5 + [429, 429]
    refused = client.get("/api/club/mood/")
    assert 0 < int(refused["Retry-After"]) <= 60
    assert other.get("/api/club/mood/").status_code == 200
    anonymous = [
        APIClient().get("/api/club/mood/", REMOTE_ADDR="10.0.0.9").status_code for _ in range(4)
    ]
    assert anonymous == [200, 200, 200, 429]


def test_on_redis_a_request_counts_again_once_the_window_passed(redis_cache, monkeypatch):
    client = APIClient()
    client.force_authenticate(UserFactory.create())
    now = [1000.0]
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: now[0])
    assert [client.get("/api/club/mood/").status_code for _ in range(6)] == [200] * 5 + [429]

    now[0] += 60.5

    assert client.get("/api/club/mood/").status_code == 200


def test_on_redis_the_window_slides_and_keeps_only_its_own_requests(redis_cache, monkeypatch):
    user = UserFactory.create()
    client = APIClient()
    client.force_authenticate(user)
    now = [1000.0]
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: now[0])
    codes = []
    for moment in (1000.0, 1000.0, 1000.0, 1030.0, 1030.0, 1045.0):
        now[0] = moment
        codes.append(client.get("/api/club/mood/").status_code)
    assert codes == [200] * 5 + [429]

    now[0] = 1060.5  # the three at 1000 have left the window, the two at 1030 not
    codes = [client.get("/api/club/mood/").status_code for _ in range(4)]

    assert codes == [200, 200, 200, 429]
    refused = client.get("/api/club/mood/")
    assert refused["Retry-After"] == "30"  # until the oldest kept, at 1030, leaves
    # Redis holds the window's five times, the expired ones trimmed.
    window = redis_cache.make_and_validate_key(f"throttle_user_{user.pk}:window")
    assert redis.Redis.from_url(settings.CELERY_BROKER_URL).llen(window) == 5


def test_while_redis_is_down_nobody_is_throttled(redis_cache, monkeypatch):
    monkeypatch.setattr(DegradingRedisCache, "_skip_until", float("inf"))
    client = APIClient()
    client.force_authenticate(UserFactory.create())

    assert {client.get("/api/club/mood/").status_code for _ in range(8)} == {200}


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_on_redis_a_token_request_reads_its_token_and_counts_in_one_round_trip(
    redis_cache, monkeypatch
):
    client = token_client(issue_token(user=UserFactory.create(last_seen_at=timezone.now())))
    assert client.get("/api/me/").status_code == 200  # the token read from the database
    assert client.get("/api/me/").status_code == 200  # (and the scripts loaded in Redis)
    commands = []
    execute = redis.Redis.execute_command

    def counted(self, *args, **options):
        commands.append(args[0])
        return execute(self, *args, **options)

    monkeypatch.setattr(redis.Redis, "execute_command", counted)

    codes = [client.get("/api/me/").status_code for _ in range(4)]

    assert codes == [200] * 3 + [429]
    assert commands == ["EVALSHA"] * 4


def test_on_redis_an_accounts_tokens_share_its_window(redis_cache):
    user = UserFactory.create()
    phone, laptop = (token_client(issue_token(user=user)) for _ in range(2))

    codes = [client.get("/api/me/").status_code for client in (phone, laptop) * 3]

    assert codes == [200] * 5 + [429]


def test_on_redis_a_revoked_tokens_requests_count_for_nothing(redis_cache):
    user = UserFactory.create()
    revoked, kept = issue_token(user=user), issue_token(user=user)
    assert token_client(revoked).get("/api/me/").status_code == 200
    ApiToken.objects.filter(digest=digest_of(revoked)).delete()

    refused = [token_client(revoked).get("/api/me/").status_code for _ in range(6)]

    assert refused == [401] * 6
    codes = [token_client(kept).get("/api/me/").status_code for _ in range(5)]
    assert codes == [200] * 4 + [429]
