"""`manage.py rate_finished_games` rates the finished games that have no ratings yet, pool by
pool in the order they ended, as if each had been rated as it ended; run again, it rates
nothing; when a game was rated before older ones (it ended before the backfill ran), the pool
is rated again from its first game."""

import itertools
from datetime import timedelta

import pytest
from django.core.management import call_command

from club import clock
from ratings.models import Leaderboard, Pool, Rating, RatingChange
from tests.factories import UserFactory
from tests.ratings.ending import end_game, game_of

pytestmark = pytest.mark.django_db


def play_games(people, count: int) -> list:
    games = []
    for number in range(count):
        seated = [people[(number + seat) % len(people)] for seat in range(4)]
        games.append(end_game(game_of(seated), scores=[1000 + 700 * (number % 3), 2000]))
        clock.advance(timedelta(hours=1))
    return games


def ratings_now() -> dict[int, tuple[float, float, int]]:
    return {
        user_id: (round(mu, 9), round(sigma, 9), games)
        for user_id, mu, sigma, games in Rating.objects.values_list(
            "user_id", "mu", "sigma", "games"
        )
    }


def forget_ratings() -> None:
    """As before ratings existed."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    Pool.objects.all().delete()


def chain_holds() -> None:
    """Every player's changes, in the order of their games' ends, each starting where the one
    before left off."""
    for user_id in Rating.objects.values_list("user_id", flat=True):
        moves = list(RatingChange.objects.filter(user_id=user_id).order_by("at", "pk"))
        for earlier, later in itertools.pairwise(moves):
            assert later.mu_before == pytest.approx(earlier.mu)


def test_the_backfill_rates_as_the_games_would_have_been_rated_as_they_ended(capsys):
    people = UserFactory.create_batch(6)
    games = play_games(people, 8)
    as_they_ended = ratings_now()
    forget_ratings()

    call_command("rate_finished_games")

    assert "async.classic.4: 8 game(s) rated." in capsys.readouterr().out
    assert ratings_now() == as_they_ended
    assert RatingChange.objects.count() == 4 * len(games)
    chain_holds()
    # The leaderboard is refreshed too (these players are all still provisional: empty).
    assert Leaderboard.objects.get(pool_id="async.classic.4").placed_version > 0

    call_command("rate_finished_games")
    assert "async.classic.4: 0 game(s) rated." in capsys.readouterr().out
    assert ratings_now() == as_they_ended


def test_a_game_rated_before_older_ones_makes_the_pool_rated_again_in_order(capsys):
    people = UserFactory.create_batch(6)
    play_games(people, 5)
    forget_ratings()
    # A game ends, and is rated, before the backfill has run.
    latest = end_game(game_of(people[:4]), scores=[4000, 100])
    assert RatingChange.objects.count() == 4

    call_command("rate_finished_games")

    assert "6 game(s) rated (the pool rated again from its first game)" in capsys.readouterr().out
    assert RatingChange.objects.count() == 24
    chain_holds()
    last = RatingChange.objects.filter(user=people[0]).order_by("at", "pk").last()
    assert last is not None and last.game_id == latest.pk
