"""Following and blocking players through the API (CONTRACT.md §8), and who is online."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import User
from club import clock
from social import services
from social.models import Block, Follow
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

Client = Callable[[User], APIClient]


def test_follow_then_unfollow_a_player(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    client = client_for(anna)
    first = client.post(f"/api/users/{boris.pk}/follow/")
    assert first.status_code == 201
    assert first.json() == {"id": boris.pk, "name": str(boris)}
    assert client.post(f"/api/users/{boris.pk}/follow/").status_code == 200
    assert Follow.objects.filter(follower=anna, followed=boris).count() == 1
    assert client.delete(f"/api/users/{boris.pk}/follow/").status_code == 204
    assert not Follow.objects.exists()
    assert client.delete(f"/api/users/{boris.pk}/follow/").status_code == 204


@pytest.mark.parametrize("relation", ["follow", "block"])
def test_refusals_name_their_code_and_change_nothing(client_for: Client, relation: str) -> None:
    anna = UserFactory.create()
    bot = UserFactory.create(bot_level="club")
    client = client_for(anna)
    yourself = client.post(f"/api/users/{anna.pk}/{relation}/")
    assert yourself.status_code == 400
    assert yourself.json()["code"] == f"cannot_{relation}_yourself"
    assert client.post(f"/api/users/{bot.pk}/{relation}/").json()["code"] == "player_is_bot"
    missing = client.post("/api/users/999999/follow/")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_a_player_you_blocked_is_not_followed_until_unblocked(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    client = client_for(anna)
    client.post(f"/api/users/{boris.pk}/follow/")
    assert client.post(f"/api/users/{boris.pk}/block/").status_code == 201
    assert client.post(f"/api/users/{boris.pk}/block/").status_code == 200
    # Blocking stops following; following again waits for the unblock.
    assert not Follow.objects.filter(follower=anna).exists()
    refused = client.post(f"/api/users/{boris.pk}/follow/")
    assert (refused.status_code, refused.json()["code"]) == (409, "player_blocked")
    assert client.get("/api/me/blocked/").json() == [{"id": boris.pk, "name": str(boris)}]
    assert client.delete(f"/api/users/{boris.pk}/block/").status_code == 204
    assert client.get("/api/me/blocked/").json() == []
    assert client.post(f"/api/users/{boris.pk}/follow/").status_code == 201


def test_a_block_is_private_the_blocked_player_keeps_following(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    client_for(boris).post(f"/api/users/{anna.pk}/follow/")
    client_for(anna).post(f"/api/users/{boris.pk}/block/")
    # Removing Boris's follow would tell him; it stays (his list shows Anna offline).
    assert Follow.objects.filter(follower=boris, followed=anna).exists()
    assert client_for(boris).get("/api/me/blocked/").json() == []


def test_the_lists_have_an_end(client_for: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "MAX_FOLLOWING", 2)
    monkeypatch.setattr(services, "MAX_BLOCKED", 1)
    anna, *others = UserFactory.create_batch(4)
    client = client_for(anna)
    for other in others[:2]:
        assert client.post(f"/api/users/{other.pk}/follow/").status_code == 201
    assert client.post(f"/api/users/{others[2].pk}/follow/").json()["code"] == "too_many_follows"
    assert client.post(f"/api/users/{others[0].pk}/block/").status_code == 201
    assert client.post(f"/api/users/{others[1].pk}/block/").json()["code"] == "too_many_blocks"
    assert Block.objects.count() == 1


def test_every_request_marks_its_player_seen_at_most_once_a_minute() -> None:
    anna = UserFactory.create()
    client = APIClient()
    client.force_authenticate(anna)
    client.get("/api/me/")
    anna.refresh_from_db()
    first = anna.last_seen_at
    assert first is not None
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/me/")
    assert not any("last_seen_at" in query["sql"] for query in queries.captured_queries)
    clock.advance(timedelta(minutes=2))
    client.get("/api/me/")
    anna.refresh_from_db()
    assert anna.last_seen_at is not None and anna.last_seen_at > first + timedelta(minutes=1)


def test_a_signed_in_page_marks_its_player_seen() -> None:
    anna = UserFactory.create()
    page = APIClient()
    page.force_login(anna)
    assert page.get("/").status_code == 200
    assert User.objects.get(pk=anna.pk).last_seen_at is not None
