"""Idempotency-Key: which answers are stored, replayed, refused or forgotten."""

from datetime import timedelta

import pytest

from club import clock
from games import services
from games.models import IdempotentResponse, Move
from tests.factories import UserFactory
from tests.games.conftest import key, post_move

pytestmark = pytest.mark.django_db


def test_a_key_first_sent_with_a_stale_version_plays_when_retried_right(client_for, game, players):
    client = client_for(players[game.turn_seat])
    stale = post_move(client, game.pk, 5, {"type": "draw"}, headers=key("k1"))
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    assert not IdempotentResponse.objects.exists()

    played = post_move(client, game.pk, 0, {"type": "draw"}, headers=key("k1"))
    assert played.status_code == 200, played.json()
    replayed = post_move(client, game.pk, 0, {"type": "draw"}, headers=key("k1"))
    assert replayed.status_code == 200 and replayed.json() == played.json()
    assert Move.objects.filter(game=game).count() == 1


def test_an_engine_refusal_is_final_for_its_key(client_for, game, players):
    client = client_for(players[game.turn_seat])
    refused = post_move(client, game.pk, 0, {"type": "discard", "card": "7H"}, headers=key("k"))
    assert refused.status_code == 400 and refused.json()["code"] == "wrong_phase"
    again = post_move(client, game.pk, 0, {"type": "discard", "card": "7H"}, headers=key("k"))
    assert (again.status_code, again.json()) == (400, refused.json())


def test_not_seated_leaves_the_key_unused(client_for, game):
    stranger = client_for(UserFactory.create())
    assert post_move(stranger, game.pk, 0, {"type": "draw"}, headers=key("k")).status_code == 403
    assert not IdempotentResponse.objects.exists()


def test_a_key_reused_for_another_request_is_422_and_plays_nothing(client_for, game, players):
    client = client_for(players[game.turn_seat])
    assert post_move(client, game.pk, 0, {"type": "draw"}, headers=key("k")).status_code == 200
    for version, action in ((1, {"type": "draw"}), (0, {"type": "undo"})):
        reused = post_move(client, game.pk, version, action, headers=key("k"))
        assert reused.status_code == 422
        assert reused.json()["code"] == "idempotency_key_reused"
    game.refresh_from_db()
    assert game.version == 1


def test_stored_answers_are_forgotten_after_a_day(client_for, game, players):
    client = client_for(players[game.turn_seat])
    assert post_move(client, game.pk, 0, {"type": "draw"}, headers=key("k")).status_code == 200
    clock.advance(services.IDEMPOTENCY_KEY_TTL - timedelta(minutes=1))
    assert services.purge_idempotency_keys() == 0
    clock.advance(timedelta(minutes=2))
    assert services.purge_idempotency_keys() == 1
    assert not IdempotentResponse.objects.exists()


def test_the_fingerprint_ignores_key_order():
    first = {"type": "meld", "melds": [{"cards": ["5H", "5S", "2C"], "rank": "5"}]}
    second = {"melds": [{"rank": "5", "cards": ["5H", "5S", "2C"]}], "type": "meld"}
    assert services.request_fingerprint(version=3, action=first) == services.request_fingerprint(
        version=3, action=second
    )
    assert services.request_fingerprint(version=3, action=first) != services.request_fingerprint(
        version=4, action=first
    )


@pytest.mark.parametrize("back_from", ["absence", "timeouts"])
def test_a_retry_of_an_away_players_move_gets_the_same_answer(client_for, game, players, back_from):
    from games.models import Seat

    seat = Seat.objects.get(game=game, seat=game.turn_seat)
    if back_from == "absence":
        Seat.objects.filter(pk=seat.pk).update(is_absent=True)
    else:
        Seat.objects.filter(pk=seat.pk).update(is_absent=True, consecutive_timeouts=1)
    client = client_for(players[game.turn_seat])
    played = post_move(client, game.pk, 0, {"type": "draw"}, headers=key("back"))
    assert played.status_code == 200, played.json()
    mover = played.json()["game"]["players"][game.turn_seat]
    assert mover["is_absent"] is False  # the answer shows the table as the move left it
    replayed = post_move(client, game.pk, 0, {"type": "draw"}, headers=key("back"))
    assert replayed.json() == played.json()
