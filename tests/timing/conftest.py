"""Shared helpers for the timing and notification tests: the fake clock, a real Celery worker."""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.db import connections

from accounts.models import User
from canasta_club.celery import app
from club import clock
from games import services as game_services
from games.engine import Match
from games.models import Game, Seat
from games.players import autoplay
from games.services import timeouts
from tests.factories import UserFactory


def _close_worker_connections(**kwargs: Any) -> None:
    # The worker thread's connections must not outlive the test database.
    connections.close_all()


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[None]:
    """A real Celery worker (a thread of this process) on the test Redis broker."""
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    task_postrun.connect(_close_worker_connections)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            yield
    finally:
        task_postrun.disconnect(_close_worker_connections)


@contextmanager
def broker_down() -> Iterator[None]:
    """Publishing goes to a port where no Redis listens, as when Redis is down."""
    live_broker = app.conf.broker_url
    app.conf.update(broker_url="redis://127.0.0.1:1/0")
    _forget_broker_connections()
    try:
        yield
    finally:
        app.conf.update(broker_url=live_broker)
        _forget_broker_connections()


def _forget_broker_connections() -> None:
    # Celery caches its connection pools; drop them so the next publish uses broker_url.
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Poll until the worker has done its part (real time passes; the club clock does not)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the worker did not get there in time"
        time.sleep(0.05)


def new_user() -> User:
    user = UserFactory.create()
    assert isinstance(user, User)
    return user


def turn_of(game: Game) -> int:
    assert game.turn_seat is not None
    return game.turn_seat


def deadline_of(game: Game) -> datetime:
    assert game.turn_deadline is not None
    return game.turn_deadline


def match_of(game: Game) -> Match:
    assert game.state is not None
    return Match.from_dict(game.state)


def user_at(game: Game, seat: int) -> User:
    return Seat.objects.select_related("user").get(game=game, seat=seat).user


def play_turn(game_id: int) -> int:
    """The player to move plays a whole turn through the move service (not automatic)."""
    game = Game.objects.get(pk=game_id)
    seat = turn_of(game)
    user = user_at(game, seat)
    for action in autoplay(match_of(game).deal, seat):
        outcome = game_services.make_move(
            game_id=game_id, user=user, version=game.version, action=action
        )
        assert isinstance(outcome, game_services.MoveResult), outcome
        game.refresh_from_db()
    return seat


def time_out_three_times(game: Game) -> Game:
    """The player to move lets their turn run out three times in a row (the others play)."""
    culprit = turn_of(game)
    for timeout in range(3):
        clock.advance(settings.TURN_LIMIT["async"])
        assert timeouts.sweep() == 1
        game.refresh_from_db()
        if timeout < 2:
            assert game.status == Game.Status.ACTIVE
            # The others play their turns; the culprit's turn comes round again.
            while game.turn_seat != culprit:
                play_turn(game.pk)
                game.refresh_from_db()
    return game
