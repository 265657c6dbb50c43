"""A rated table may ask for a rating range: players rated outside it in the table's pool are
refused (403 `rating_out_of_range`); the lobby shows it and filters by it. Bad ranges are 400
with a code, never a 500."""

from typing import Any

import pytest

from games import services
from games.models import Game
from tests.factories import UserFactory
from tests.ratings.ending import set_rating

pytestmark = pytest.mark.django_db


def open_table(client, **fields) -> Any:
    return client.post(
        "/api/games/", {"mode": "async", "length": "deal", "rules": {}, **fields}, format="json"
    )


def test_a_player_outside_the_range_cannot_join(api_client):
    creator, expert, novice, newcomer = UserFactory.create_batch(4)
    set_rating(creator, rating=1650, deviation=100)
    set_rating(expert, rating=1700, deviation=100)
    set_rating(novice, rating=1320, deviation=100)
    api_client.force_authenticate(creator)
    opened = open_table(api_client, rating_range=[1450, 1800])
    assert opened.status_code == 201
    game_id = opened.json()["id"]
    assert opened.json()["rating_range"] == [1450, 1800]

    api_client.force_authenticate(novice)
    refused = api_client.post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "rating_out_of_range"
    assert "1320" in refused.json()["detail"]

    api_client.force_authenticate(expert)
    assert (
        api_client.post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json").status_code
        == 200
    )
    # A newcomer to the pool stands at 1500: inside.
    api_client.force_authenticate(newcomer)
    assert (
        api_client.post(f"/api/games/{game_id}/join/", {"seat": 2}, format="json").status_code
        == 200
    )


def test_the_range_is_of_the_tables_pool(api_client):
    creator, player = UserFactory.create_batch(2)
    set_rating(player, rating=1900, deviation=100, pool="live.classic.4")
    api_client.force_authenticate(creator)
    game_id = open_table(api_client, rating_range=[1400, 1600]).json()["id"]

    api_client.force_authenticate(player)
    # 1900 live, a newcomer's 1500 by correspondence: the async table lets them in.
    assert (
        api_client.post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json").status_code
        == 200
    )


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"rating_range": [1700, 1400]}, "invalid_rating_range"),
        ({"rating_range": [1600, 1800]}, "invalid_rating_range"),  # without the creator's 1500
        ({"rated": False, "rating_range": [1400, 1700]}, "rating_range_on_casual_table"),
        ({"rating_range": [1400]}, "invalid"),
        ({"rating_range": [1400, 1500, 1600]}, "invalid"),
        ({"rating_range": ["low", "high"]}, "invalid"),
        ({"rating_range": [-5, 1600]}, "invalid"),
        ({"rating_range": {"min": 1}}, "invalid"),
    ],
)
def test_bad_ranges_are_400_with_a_code(api_client, fields, code):
    api_client.force_authenticate(UserFactory.create())

    answer = open_table(api_client, **fields)

    assert answer.status_code == 400
    assert answer.json()["code"] == code
    assert not Game.objects.exists()


def test_a_range_may_be_null(api_client):
    api_client.force_authenticate(UserFactory.create())

    answer = open_table(api_client, rating_range=None, rated=False)

    assert answer.status_code == 201
    assert answer.json()["rated"] is False
    assert answer.json()["rating_range"] is None


def test_the_lobby_shows_the_range_and_filters_by_it(api_client):
    me, host, other_host = UserFactory.create_batch(3)
    set_rating(me, rating=1350, deviation=100)
    set_rating(host, rating=1700, deviation=100)
    for_experts = services.open_table(
        user=host, mode="async", length="deal", rules={}, private=False, rating_range=(1600, 2000)
    )
    for_all = services.open_table(
        user=other_host, mode="async", length="deal", rules={}, private=False
    )
    for_me = services.open_table(
        user=other_host,
        mode="async",
        length="deal",
        rules={},
        private=False,
        rating_range=(1300, 1500),
    )
    api_client.force_authenticate(me)

    shown = api_client.get("/api/games/?status=waiting").json()["results"]
    mine = api_client.get("/api/games/?status=waiting&for_my_rating=1").json()["results"]

    assert {row["id"]: row["rating_range"] for row in shown} == {
        for_experts.pk: [1600, 2000],
        for_all.pk: None,
        for_me.pk: [1300, 1500],
    }
    assert {row["id"] for row in mine} == {for_all.pk, for_me.pk}
