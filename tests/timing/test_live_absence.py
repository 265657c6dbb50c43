"""Live games (R-CLUB-1/2): 30 s a turn; a player unseen for 60 s is absent, autoplayed at once."""

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from canasta_club import clock
from games import services as game_services
from games import timeouts
from games.models import Game, Move, Seat
from notifications.models import Notification
from notifications.services import drain_outbox
from tests.factories import started_game
from tests.timing.conftest import deadline_of, play_turn, turn_of, user_at

pytestmark = pytest.mark.django_db(transaction=True)


def heartbeat(game: Game, seat: int) -> dict:
    client = APIClient()
    client.force_authenticate(user_at(game, seat))
    response = client.post(f"/api/games/{game.pk}/heartbeat/")
    assert response.status_code == 200, response.content
    return response.json()


def others_are_here(game: Game, dropped: int) -> None:
    for seat in range(4):
        if seat != dropped:
            heartbeat(game, seat)


def play_until(game: Game, seat: int) -> None:
    game.refresh_from_db()
    while game.turn_seat != seat:
        play_turn(game.pk)
        game.refresh_from_db()


def seat_row(game: Game, seat: int) -> Seat:
    return Seat.objects.get(game=game, seat=seat)


def automatic_turns_of(game: Game, seat: int) -> int:
    return Move.objects.filter(game=game, seat=seat, automatic=True, action__type="discard").count()


def test_a_dropped_live_player_is_waited_for_then_autoplayed_and_reclaims_the_seat():
    game = started_game(mode=Game.Mode.LIVE, length=Game.Length.MATCH)
    dropped = (turn_of(game) + 1) % 4
    play_until(game, dropped)  # the dropped player's last request was at the start

    # Within the 30 s turn limit nothing happens (margins leave room for real time passing).
    clock.advance(timedelta(seconds=25))
    others_are_here(game, dropped)
    assert timeouts.sweep_until_done() == 0

    # At 30 s the turn times out and is played for them; not absent yet (seen 31 s ago).
    clock.advance(timedelta(seconds=6))
    others_are_here(game, dropped)
    assert timeouts.sweep_until_done() == 1
    assert automatic_turns_of(game, dropped) == 1
    assert not seat_row(game, dropped).is_absent

    # Their next turn starts at 41 s; they still have the grace of 60 s since last seen.
    clock.advance(timedelta(seconds=10))
    others_are_here(game, dropped)
    play_until(game, dropped)
    clock.advance(timedelta(seconds=10))
    others_are_here(game, dropped)
    assert timeouts.sweep_until_done() == 0

    # 60 s unseen: absent, and their turn is played at once, before its deadline (71 s).
    clock.advance(timedelta(seconds=11))
    others_are_here(game, dropped)
    game.refresh_from_db()
    assert deadline_of(game) > clock.now()
    assert timeouts.sweep_until_done() == 1
    assert seat_row(game, dropped).is_absent
    assert automatic_turns_of(game, dropped) == 2
    drain_outbox()
    reasons = [
        n.payload["reason"]
        for n in Notification.objects.filter(user=user_at(game, dropped), kind="autoplayed")
    ]
    assert sorted(reasons) == ["absent", "timeout"]

    # Each turn of theirs is played at once while they are away.
    play_until(game, dropped)
    assert timeouts.sweep_until_done() == 1
    assert automatic_turns_of(game, dropped) == 3

    # Any request brings them back: the seat is theirs again, with the normal turn limit.
    presence = heartbeat(game, dropped)
    assert presence["is_absent"] is False
    play_until(game, dropped)
    assert timeouts.sweep_until_done() == 0
    assert automatic_turns_of(game, dropped) == 3


def test_a_player_back_through_any_request_is_no_longer_absent():
    game = started_game(mode=Game.Mode.LIVE)
    away = (turn_of(game) + 2) % 4
    clock.advance(timedelta(seconds=61))
    others_are_here(game, away)
    timeouts.sweep_until_done()
    assert seat_row(game, away).is_absent

    client = APIClient()
    client.force_authenticate(user_at(game, away))
    assert client.get(f"/api/games/{game.pk}/").status_code == 200
    timeouts.sweep_until_done()
    assert not seat_row(game, away).is_absent


def test_a_table_everyone_left_moves_only_at_the_turn_limit():
    game = started_game(mode=Game.Mode.LIVE)
    clock.advance(timedelta(seconds=31))
    assert timeouts.sweep_until_done() == 1
    game.refresh_from_db()
    assert deadline_of(game) > clock.now()
    assert timeouts.sweep_until_done() == 0  # nobody is here: no autoplay at machine speed


def test_live_games_never_abandon_for_timeouts():
    game = started_game(mode=Game.Mode.LIVE, length=Game.Length.MATCH)
    for _ in range(12):
        clock.advance(timedelta(seconds=31))
        assert timeouts.sweep_until_done() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_heartbeat_refuses_strangers_and_unknown_games():
    game = started_game(mode=Game.Mode.LIVE)
    stranger = APIClient()
    stranger.force_authenticate(game_services.User.objects.create(username="stranger"))
    assert stranger.post(f"/api/games/{game.pk}/heartbeat/").json()["code"] == "not_seated"
    for missing_id in ("999999", "99999999999999999999"):
        missing = stranger.post(f"/api/games/{missing_id}/heartbeat/")
        assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
