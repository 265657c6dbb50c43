"""The ratings API (CONTRACT.md §6): a pool's leaderboard, highest first, paginated, provisional
players left out; a player's history in a pool, oldest first; ratings on the profiles; unknown
pools 400 `unknown_pool`."""

import pytest

from ratings import services
from ratings.models import Rating
from tests.factories import UserFactory
from tests.ratings.ending import end_game, game_of, set_rating

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(api_client):
    api_client.force_authenticate(UserFactory.create())
    return api_client


def test_the_leaderboard_highest_first_without_the_provisional(client):
    players = UserFactory.create_batch(5)
    for player, rating in zip(players, (1510, 1780, 1640, 1900, 1620), strict=True):
        set_rating(player, rating=rating, deviation=120)
    set_rating(players[3], rating=1900, deviation=300)  # provisional: left out
    services.refresh_leaderboards()

    board = client.get("/api/ratings/?pool=async.classic.4").json()

    assert board["count"] == 4
    assert board["results"] == [
        {
            "rank": rank,
            "user": {"id": players[index].pk, "name": players[index].display_name},
            "rating": rating,
            "deviation": 120,
            "games": 40,
        }
        for rank, (index, rating) in enumerate([(1, 1780), (2, 1640), (4, 1620), (0, 1510)], 1)
    ]


def test_the_leaderboard_pages_by_places(client):
    players = UserFactory.create_batch(7)
    for number, player in enumerate(players):
        set_rating(player, rating=1800 - 10 * number, deviation=100)
    services.refresh_leaderboards()

    first = client.get("/api/ratings/?pool=async.classic.4&limit=3").json()
    last = client.get("/api/ratings/?pool=async.classic.4&limit=3&offset=6").json()

    assert [row["rank"] for row in first["results"]] == [1, 2, 3]
    assert first["count"] == 7
    assert "offset=3" in first["next"]
    assert first["previous"] is None
    assert [row["user"]["id"] for row in last["results"]] == [players[6].pk]
    assert last["next"] is None


def test_places_follow_the_games_after_a_refresh(client):
    game = game_of()
    for seat in game.seats.all():
        set_rating(seat.user, rating=1500, deviation=150)
    services.refresh_leaderboards()

    end_game(game, scores=[900, 3000])
    assert services.refresh_leaderboards() == ["async.classic.4"]
    # Nothing moved since: a second refresh (a repeated task) is not due and changes nothing.
    assert services.refresh_leaderboards() == []

    ranked = client.get("/api/ratings/?pool=async.classic.4").json()["results"]
    winners = {seat.user_id for seat in game.seats.filter(team=1)}
    assert {row["user"]["id"] for row in ranked[:2]} == winners
    assert [row["rank"] for row in ranked] == [1, 2, 3, 4]
    assert ranked[0]["rating"] == ranked[1]["rating"] > ranked[2]["rating"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/ratings/?pool=async.classic.5",
        "/api/ratings/?pool=classic",
        "/api/users/{id}/ratings/?pool=blitz.classic.4",
        "/api/users/{id}/ratings/?pool=" + "x" * 300,
    ],
)
def test_an_unknown_pool_is_400(client, path):
    user = UserFactory.create()

    answer = client.get(path.format(id=user.pk))

    assert answer.status_code == 400
    assert answer.json()["code"] in {"unknown_pool", "invalid"}


def test_an_unknown_pool_names_the_pools(client):
    answer = client.get("/api/ratings/?pool=async.classic.5")

    assert answer.json()["code"] == "unknown_pool"
    assert "async.classic.4" in answer.json()["detail"]


@pytest.mark.parametrize("query", ["", "?pool="])
def test_the_default_pool_is_the_clubs_game(client, query):
    assert client.get(f"/api/ratings/{query}").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }


def test_a_players_history_oldest_first(client):
    player = UserFactory.create()
    games = [
        end_game(game_of([player, *UserFactory.create_batch(3)]), scores=[2000, 100 + n])
        for n in range(3)
    ]

    history = client.get(f"/api/users/{player.pk}/ratings/?pool=async.classic.4").json()

    assert [point["game"] for point in history] == [game.pk for game in games]
    rating = Rating.objects.get(user=player)
    assert history[-1]["rating"] == rating.skill.rating
    assert history[-1]["deviation"] == rating.skill.deviation
    assert history[0]["rating"] < history[1]["rating"] < history[2]["rating"]
    assert set(history[0]) == {"game", "at", "rating", "deviation"}
    assert client.get(f"/api/users/{player.pk}/ratings/?pool=live.classic.4").json() == []
    assert client.get("/api/users/987654/ratings/").status_code == 404


def test_the_players_card_lists_a_rating_per_pool_played(client):
    player = UserFactory.create()
    end_game(game_of([player, *UserFactory.create_batch(3)]), scores=[2000, 100])
    end_game(game_of([player, UserFactory.create()], players=2), scores=[0, 700])

    ratings = client.get(f"/api/users/{player.pk}/").json()["ratings"]

    assert {standing["pool"] for standing in ratings} == {"async.classic.4", "async.classic.2"}
    by_pool = {standing["pool"]: standing for standing in ratings}
    assert by_pool["async.classic.4"]["rating"] > 1500 > by_pool["async.classic.2"]["rating"]
    assert set(by_pool["async.classic.2"]) == {
        "pool",
        "rating",
        "deviation",
        "games",
        "provisional",
        "rank",
    }
