"""A deviation grows while its player does not play in the pool, on the database's clock: as
shown at any moment, and as the next game takes it; a long pause makes a rating provisional
again, and the leaderboard leaves the player out."""

from datetime import timedelta

import pytest

from club import clock
from ratings import services
from ratings.models import RatingChange
from tests.factories import UserFactory
from tests.ratings.ending import end_game, game_of, set_rating

pytestmark = pytest.mark.django_db


def shown(api_client, user) -> dict:
    api_client.force_authenticate(user)
    (standing,) = api_client.get("/api/me/").json()["ratings"]
    return standing


def test_the_deviation_grows_with_the_clock_and_the_rating_stays(api_client):
    player = UserFactory.create()
    set_rating(player, rating=1620, deviation=100)
    assert shown(api_client, player)["deviation"] == 100

    clock.advance(timedelta(days=30))
    month = shown(api_client, player)
    clock.advance(timedelta(days=335))
    year = shown(api_client, player)

    assert month["rating"] == year["rating"] == 1620
    assert 100 < month["deviation"] < year["deviation"] < 350
    assert month["provisional"] is False


def test_the_deviation_never_grows_past_a_newcomers(api_client):
    player = UserFactory.create()
    set_rating(player, rating=1700, deviation=100)

    clock.advance(timedelta(days=20 * 365))

    assert shown(api_client, player)["deviation"] == 350


def test_the_next_game_starts_from_the_grown_deviation_and_moves_more():
    rested, steady = UserFactory.create_batch(2)
    opponents = UserFactory.create_batch(6)
    for player in (rested, steady, *opponents):
        set_rating(player, rating=1500, deviation=100)

    clock.advance(timedelta(days=200))
    # Only `rested` sat out the 200 days: the others played just now.
    for player in (steady, *opponents):
        set_rating(player, rating=1500, deviation=100)
    first = end_game(game_of([rested, opponents[0], opponents[1], opponents[2]]), scores=[5000, 0])
    second = end_game(game_of([steady, opponents[3], opponents[4], opponents[5]]), scores=[5000, 0])

    rested_move = RatingChange.objects.get(game=first, user=rested)
    steady_move = RatingChange.objects.get(game=second, user=steady)
    assert rested_move.sigma_before > steady_move.sigma_before
    assert rested_move.change > steady_move.change > 0


def test_a_long_pause_makes_a_rating_provisional_again_and_leaves_the_leaderboard(api_client):
    player, other = UserFactory.create_batch(2)
    set_rating(player, rating=1600, deviation=250)
    services.refresh_leaderboards()
    api_client.force_authenticate(other)
    board = api_client.get("/api/ratings/?pool=async.classic.4").json()
    assert [row["user"]["id"] for row in board["results"]] == [player.pk]

    clock.advance(timedelta(days=200))  # 250 grows past 280 after 144 days

    standing = shown(api_client, player)
    assert standing["deviation"] > 280
    assert standing["provisional"] is True
    assert standing["rank"] is None
    api_client.force_authenticate(other)
    assert api_client.get("/api/ratings/?pool=async.classic.4").json()["results"] == []
    # The refresh then takes the place away too (due: a player on the board turned provisional).
    assert services.refresh_leaderboards() == ["async.classic.4"]
    assert api_client.get("/api/ratings/?pool=async.classic.4").json()["count"] == 0
