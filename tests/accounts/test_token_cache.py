"""A token's user read from Redis (accounts/token_cache.py): a token request reads no token row,
and whatever ends or changes a token or its user counts at once, even against a copy in the cache
or a read that raced the change."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import authentication, token_cache
from accounts.authentication import digest_of
from accounts.models import ApiToken, User
from accounts.services import issue_token
from club import clock
from games.services import count_game_over
from tests.factories import DEFAULT_PASSWORD, UserFactory, started_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("redis_cache")]


def client_of(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def token_queries(client: APIClient) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/me/").status_code == 200
    return sum(ApiToken._meta.db_table in query["sql"] for query in queries.captured_queries)


def test_a_token_request_reads_its_user_from_the_cache() -> None:
    # Seen just now: no last-seen stamp (once a minute, a user row change) in the way.
    client = client_of(issue_token(user=UserFactory.create(last_seen_at=timezone.now())))

    assert token_queries(client) == 2  # read, and last_used_at written (once an hour)
    assert token_queries(client) == 0


def test_a_revoked_token_is_refused_at_once() -> None:
    user = UserFactory.create()
    phone, laptop = (client_of(issue_token(user=user, device=name)) for name in ("a", "b"))
    assert phone.get("/api/me/").status_code == 200
    phone_id = ApiToken.objects.get(user=user, device="a").pk

    assert laptop.delete(f"/api/auth/tokens/{phone_id}/").status_code == 204

    assert phone.get("/api/me/").status_code == 401


def test_log_out_and_a_password_change_end_cached_tokens_at_once() -> None:
    user = UserFactory.create()
    first, second = (client_of(issue_token(user=user)) for _ in range(2))
    assert first.get("/api/me/").status_code == second.get("/api/me/").status_code == 200

    assert first.post("/api/auth/logout/").status_code == 204
    assert first.get("/api/me/").status_code == 401
    changed = second.post(
        "/api/auth/password/change/",
        {"old_password": DEFAULT_PASSWORD, "new_password": "queen-of-hearts-8"},
        format="json",
    )
    assert changed.status_code == 200
    assert second.get("/api/me/").status_code == 401
    assert client_of(changed.json()["token"]).get("/api/me/").status_code == 200


def test_a_deactivated_account_is_refused_at_once() -> None:
    user = UserFactory.create()
    client = client_of(issue_token(user=user))
    assert client.get("/api/me/").status_code == 200

    user.is_active = False
    user.save()

    assert client.get("/api/me/").status_code == 401


def test_an_expired_token_is_refused_though_the_cache_has_it(monkeypatch) -> None:
    client = client_of(issue_token(user=UserFactory.create()))
    assert client.get("/api/me/").status_code == 200
    later = timezone.now() + settings.TOKEN_LIFETIME + timedelta(seconds=1)

    monkeypatch.setattr(authentication.timezone, "now", lambda: later)

    assert client.get("/api/me/").status_code == 401


def test_changes_made_by_update_show_at_once() -> None:
    game = started_game()
    seat = game.seats.get(seat=0)
    client = client_of(issue_token(user=seat.user))
    assert client.get("/api/me/").json()["games"]["played"] == 0
    game.status = "finished"
    game.winner_team = seat.team

    count_game_over(game=game, seats=list(game.seats.select_related("user")))

    assert client.get("/api/me/").json()["games"] == {"played": 1, "won": 1, "abandoned": 0}


def test_a_read_that_raced_a_change_cannot_put_its_copy_back() -> None:
    user = UserFactory.create()
    key = issue_token(user=user)
    before_the_change = token_cache.cached(digest_of(key))
    raced = ApiToken.objects.select_related("user").get(digest=digest_of(key))

    User.objects.filter(pk=user.pk).update(is_active=False)
    token_cache.remember(digest_of(key), raced, now=timezone.now(), lookup=before_the_change)

    assert token_cache.cached(digest_of(key)).entry is None
    assert client_of(key).get("/api/me/").status_code == 401


def test_the_last_seen_stamp_leaves_the_cached_token_be_and_is_written_once_a_minute() -> None:
    user = UserFactory.create(last_seen_at=None)
    client = client_of(issue_token(user=user))
    assert token_queries(client) == 2  # read, and last_used_at written (once an hour)

    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert client.get("/api/me/").status_code == 200

    sql = [query["sql"] for query in queries.captured_queries]
    assert not any(ApiToken._meta.db_table in statement for statement in sql)
    assert not any("last_seen_at" in statement for statement in sql)
    assert User.objects.get(pk=user.pk).last_seen_at is not None
    clock.advance(timedelta(minutes=2))
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/me/").status_code == 200
    assert sum("last_seen_at" in query["sql"] for query in queries.captured_queries) == 1


def test_only_the_stamp_alone_leaves_the_cached_copies_be() -> None:
    user = UserFactory.create()
    client = client_of(issue_token(user=user))
    assert client.get("/api/me/").status_code == 200

    User.objects.filter(pk=user.pk).update(last_seen_at=timezone.now())
    user.last_seen_at = timezone.now()
    user.save(update_fields=["last_seen_at"])
    assert token_queries(client) == 0

    User.objects.filter(pk=user.pk).update(last_seen_at=timezone.now(), is_active=False)
    assert client.get("/api/me/").status_code == 401


def test_once_a_change_commits_one_request_reads_the_database_and_puts_the_copy_back(
    django_capture_on_commit_callbacks,
) -> None:
    user = UserFactory.create(last_seen_at=timezone.now())
    client = client_of(issue_token(user=user))
    assert token_queries(client) == 2  # read, and last_used_at written (once an hour)

    with django_capture_on_commit_callbacks(execute=True):
        User.objects.filter(pk=user.pk).update(games_played=F("games_played") + 1)

    assert token_queries(client) == 1
    assert token_queries(client) == 0
    assert client.get("/api/me/").json()["games"]["played"] == 1


def test_while_a_change_has_not_committed_every_request_reads_the_database() -> None:
    user = UserFactory.create(last_seen_at=timezone.now())
    client = client_of(issue_token(user=user))
    assert token_queries(client) == 2

    User.objects.filter(pk=user.pk).update(games_played=F("games_played") + 1)

    assert [token_queries(client) for _ in range(2)] == [1, 1]


def test_a_change_committing_leaves_a_later_changes_mark_be(
    django_capture_on_commit_callbacks,
) -> None:
    user = UserFactory.create()
    key = issue_token(user=user)
    digest = digest_of(key)

    with django_capture_on_commit_callbacks() as first_commit, token_cache.changing([digest]):
        pass
    with token_cache.changing([digest]):  # a second change, not yet committed
        pass
    for callback in first_commit:
        callback()

    seen = token_cache.cached(digest)
    assert seen.entry is None and seen.mark is not None and seen.mark < 0
    assert client_of(key).get("/api/me/").status_code == 200
    assert token_cache.cached(digest).entry is None


def test_a_mark_left_by_the_tree_before_this_one_is_read_as_a_change(redis_cache) -> None:
    key = issue_token(user=UserFactory.create())
    client = client_of(key)
    assert client.get("/api/me/").status_code == 200
    redis_cache.set(f"{token_cache.KEY_PREFIX}{digest_of(key)}", "changed")  # its mark

    assert [token_queries(client) for _ in range(2)] == [1, 1]
