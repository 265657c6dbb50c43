"""The leaderboards' refresh writes only its own rows: a game ending while a refresh places the
pool's players does not wait for it, and a second refresh of the pool at once leaves it to the
first (real PostgreSQL, threads)."""

import threading
import time

import pytest
from django.db import transaction

from ratings import services
from ratings.models import Leaderboard, Place
from tests.concurrency import run_in_threads
from tests.factories import UserFactory
from tests.ratings.ending import end_game, game_of, set_rating

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_game_ends_while_a_refresh_holds_the_leaderboard():
    players = UserFactory.create_batch(4)
    for player in players:
        set_rating(player, rating=1500, deviation=120)
    game = game_of(players)
    holding = threading.Event()
    release = threading.Event()

    def slow_refresh() -> None:
        with transaction.atomic():
            Leaderboard.objects.select_for_update(of=("self",)).get(pool_id="async.classic.4")
            holding.set()
            release.wait(timeout=20)

    def game_ends() -> float:
        holding.wait(timeout=20)
        started = time.monotonic()
        end_game(game, scores=[3000, 100])
        ended = time.monotonic() - started
        release.set()
        return ended

    refresh_result, took = run_in_threads(slow_refresh, game_ends)

    assert refresh_result is None
    assert took < 5  # it never waited for the refresh (which waits up to 20 s)


def test_two_refreshes_at_once_place_the_pool_once():
    players = UserFactory.create_batch(30)
    for number, player in enumerate(players):
        set_rating(player, rating=1400 + number, deviation=100)

    answers = run_in_threads(
        lambda: services.refresh_leaderboard(pool="async.classic.4"),
        lambda: services.refresh_leaderboard(pool="async.classic.4"),
    )

    assert not [answer for answer in answers if isinstance(answer, Exception)]
    assert 30 in answers
    ranks = sorted(Place.objects.values_list("rank", flat=True))
    assert ranks == list(range(1, 31))
    best = Place.objects.get(rank=1).rating.user
    assert best == players[-1]
