"""games.store, the game row's written-out SQL: what it reads and writes is what the ORM reads."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import models, transaction
from django.utils import timezone

from games import store
from games.models import Game, Move, Seat
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def _fields(instance: models.Model) -> dict[str, Any]:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
    }


def _game_as_the_orm_reads_it(game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    seats = Seat.objects.filter(game_id=game_id).select_related("user").order_by("seat")
    return _fields(Game.objects.get(pk=game_id)), [
        {
            **_fields(seat),
            "user": (seat.user.pk, seat.user.username, seat.user.display_name, seat.user.bot_level),
        }
        for seat in seats
    ]


def _as_loaded(loaded: store.LoadedGame) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return _fields(loaded.game), [
        {
            **_fields(seat),
            "user": (seat.user.pk, seat.user.username, seat.user.display_name, seat.user.bot_level),
        }
        for seat in loaded.seats
    ]


@pytest.fixture
def finished_game() -> Game:
    """Every kind of column filled: a seed of 128 bits, JSON, times, a bot, an absent seat."""
    players = [*UserFactory.create_batch(3), UserFactory.create(bot_level="club")]
    game = started_game(players=players)
    Seat.objects.filter(game=game, seat=2).update(
        is_absent=True, last_seen_at=timezone.now(), consecutive_timeouts=2
    )
    Game.objects.filter(pk=game.pk).update(
        seed=2**128 - 1,
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
        winner_team=1,
        scores=[5120, -35],
        sweep_retry_at=timezone.now() + timedelta(minutes=1),
    )
    return Game.objects.get(pk=game.pk)


def test_load_reads_the_game_and_its_seats_as_the_orm_does(finished_game):
    loaded = store.load(game_id=finished_game.pk)

    assert loaded is not None
    assert _as_loaded(loaded) == _game_as_the_orm_reads_it(finished_game.pk)
    assert loaded.game.seed == 2**128 - 1
    assert abs(loaded.now - timezone.now()) < timedelta(minutes=1)


def test_a_loaded_seat_holds_its_game_and_player_without_a_query(
    finished_game, django_assert_num_queries
):
    loaded = store.load(game_id=finished_game.pk)

    assert loaded is not None
    with django_assert_num_queries(0):
        for seat in loaded.seats:
            assert seat.game is loaded.game
            assert seat.user.pk == seat.user_id
            assert seat.user._state.db == seat._state.db == "default"
            assert not seat.user._state.adding


def test_load_for_update_and_load_many_read_the_same(finished_game):
    other = started_game()
    with transaction.atomic():
        locked = store.load(game_id=finished_game.pk, for_update=True)
        many = store.load_many(game_ids=[other.pk, finished_game.pk])

    assert locked is not None
    assert _as_loaded(locked) == _game_as_the_orm_reads_it(finished_game.pk)
    assert [_as_loaded(loaded) for loaded in many] == [
        _game_as_the_orm_reads_it(other.pk),
        _game_as_the_orm_reads_it(finished_game.pk),
    ]
    assert store.load(game_id=0) is None


def test_write_stores_the_moves_and_the_game_fields_a_move_changes():
    game = started_game()
    before = _fields(game)
    now = timezone.now()
    game.version += 2
    game.state = {"changed": True}
    game.scores = [10, 20]
    game.turn_seat = 3
    game.turn_started_at = now
    game.turn_deadline = now + timedelta(hours=24)
    moves = [
        Move(
            game=game,
            seq=seq,
            deal_number=1,
            seat=seq % 4,
            action={"type": "draw"},
            automatic=bool(seq % 2),
            public={"drew": 1},
            private={"cards": ["AH"]},
            created_at=now,
        )
        for seq in (1, 2)
    ]

    with transaction.atomic():
        store.write(game=game, moves=moves)

    assert _fields(Game.objects.get(pk=game.pk)) == {
        **before,
        "version": game.version,
        "state": {"changed": True},
        "scores": [10, 20],
        "turn_seat": 3,
        "turn_started_at": now,
        "turn_deadline": now + timedelta(hours=24),
    }
    stored = Move.objects.filter(game=game).order_by("seq")
    assert [{**_fields(move), "id": None} for move in stored] == [
        {**_fields(move), "id": None} for move in moves
    ]
