"""The people one follows (issue 37): who is online now and who waits for a game; a player's
card says whether you follow them; a block hides what the blocker does from the blocked."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import User
from club import clock
from games import services as game_services
from social import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

Client = Callable[[User], APIClient]


def named(name: str) -> User:
    user = UserFactory.create(display_name=name)
    assert isinstance(user, User)
    return user


def seen_now(*players: User) -> None:
    User.objects.filter(pk__in=[player.pk for player in players]).update(last_seen_at=clock.now())


def test_the_list_says_who_is_online_and_who_waits_for_a_game(client_for: Client) -> None:
    anna = named("Анна")
    vera, boris, gleb = named("Вера"), named("борис"), named("Глеб")
    for player in (vera, boris, gleb):
        services.follow(user=anna, player_id=player.pk)
    seen_now(boris, gleb)
    User.objects.filter(pk=vera.pk).update(last_seen_at=clock.now() - timedelta(minutes=6))
    waiting = game_services.open_table(
        user=gleb, mode="async", length="deal", rules={}, private=False
    )
    game_services.open_table(user=boris, mode="async", length="deal", rules={}, private=True)
    answer = client_for(anna).get("/api/me/following/").json()
    # By name, in any case; a private table is nobody's business.
    assert answer == [
        {"id": boris.pk, "name": "борис", "online": True, "waiting_games": []},
        {"id": vera.pk, "name": "Вера", "online": False, "waiting_games": []},
        {"id": gleb.pk, "name": "Глеб", "online": True, "waiting_games": [waiting.pk]},
    ]


def test_a_player_who_blocked_you_shows_offline_and_waiting_nowhere(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    services.follow(user=anna, player_id=boris.pk)
    seen_now(boris)
    game_services.open_table(user=boris, mode="async", length="deal", rules={}, private=False)
    services.block(user=boris, player_id=anna.pk)
    (entry,) = client_for(anna).get("/api/me/following/").json()
    assert (entry["online"], entry["waiting_games"]) == (False, [])
    card = client_for(anna).get(f"/api/users/{boris.pk}/").json()
    assert card["online"] is False
    assert card["following"] is True and card["blocked"] is False


def test_the_card_says_whether_you_follow_them(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    seen_now(boris)
    card = client_for(anna).get(f"/api/users/{boris.pk}/").json()
    assert (card["following"], card["blocked"], card["online"]) == (False, False, True)
    services.follow(user=anna, player_id=boris.pk)
    assert client_for(anna).get(f"/api/users/{boris.pk}/").json()["following"] is True
    services.block(user=anna, player_id=boris.pk)
    card = client_for(anna).get(f"/api/users/{boris.pk}/").json()
    assert (card["following"], card["blocked"], card["online"]) == (False, True, False)


def test_online_means_seen_within_a_few_minutes(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    services.follow(user=anna, player_id=boris.pk)
    # Never seen yet.
    assert client_for(anna).get("/api/me/following/").json()[0]["online"] is False
    client_for(boris).get("/api/me/")
    assert client_for(anna).get("/api/me/following/").json()[0]["online"] is True
    clock.advance(timedelta(minutes=6))
    assert client_for(anna).get("/api/me/following/").json()[0]["online"] is False
    client_for(User.objects.get(pk=boris.pk)).get("/api/me/")
    assert client_for(anna).get("/api/me/following/").json()[0]["online"] is True


def test_the_tables_shown_are_the_lobbys(client_for: Client) -> None:
    """A followed player's table is shown where the viewer's lobby shows it: not one with a
    player the viewer keeps apart from, and a private one the viewer is invited to."""
    anna, boris, gleb, zoya = named("Анна"), named("Борис"), named("Глеб"), named("Зоя")
    for player in (boris, gleb):
        services.follow(user=anna, player_id=player.pk)
    with_zoya = game_services.open_table(
        user=boris, mode="async", length="deal", rules={}, private=False
    )
    game_services.join_table(game_id=with_zoya.pk, user=zoya, seat=1)
    services.block(user=anna, player_id=zoya.pk)
    inviting = game_services.open_table(
        user=gleb, mode="async", length="deal", rules={}, private=True, invite=[anna.pk]
    )
    answer = client_for(anna).get("/api/me/following/").json()
    assert [(entry["id"], entry["waiting_games"]) for entry in answer] == [
        (boris.pk, []),
        (gleb.pk, [inviting.pk]),
    ]


def test_the_list_reads_the_same_few_queries_however_many_and_however_long_their_past(
    client_for: Client,
) -> None:
    from games.selectors import people_followed
    from tests.factories import started_game

    anna = named("Анна")
    few = [named(f"Игрок {number}") for number in range(2)]
    for player in few:
        services.follow(user=anna, player_id=player.pk)
    game_services.open_table(user=few[0], mode="async", length="deal", rules={}, private=False)
    with CaptureQueriesContext(connection) as some:
        people_followed(user=anna)
    many = [named(f"Игрок {number}") for number in range(2, 30)]
    for player in many:
        services.follow(user=anna, player_id=player.pk)
    for start in range(0, 28, 4):
        started_game(players=many[start : start + 4])
    with CaptureQueriesContext(connection) as more:
        assert len(people_followed(user=anna)) == 30
    assert len(more) == len(some) <= 5
