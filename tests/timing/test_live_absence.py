"""Live games (R-CLUB-1/2): 30 s a turn; a player unseen for 60 s is absent, autoplayed at once."""

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from club import clock
from games import services as game_services
from games.models import Game, Move, Seat
from games.selectors.presence import absence_deadline
from games.services import presence, timeouts
from notifications.models import Notification
from notifications.services import drain_outbox
from tests.factories import UserFactory, started_game
from tests.timing.conftest import deadline_of, play_turn, turn_of, user_at

pytestmark = pytest.mark.django_db(transaction=True)


def live_game_with_a_bot() -> Game:
    """Three people and a bot (seat 3) at a live table."""
    people = UserFactory.create_batch(3)
    game = game_services.open_table(
        user=people[0], mode=Game.Mode.LIVE, length="deal", rules={}, private=False, seat=0
    )
    for seat, person in enumerate(people[1:], start=1):
        game_services.join_table(game_id=game.pk, user=person, seat=seat)
    game_services.seat_bot(game_id=game.pk, user=people[0], seat=3, level="club")
    return Game.objects.get(pk=game.pk)


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
    assert reasons == ["timeout"], "one notification for the whole absence"

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
    stranger.force_authenticate(User.objects.create(username="stranger"))
    assert stranger.post(f"/api/games/{game.pk}/heartbeat/").json()["code"] == "not_seated"
    for missing_id in ("999999", "99999999999999999999"):
        missing = stranger.post(f"/api/games/{missing_id}/heartbeat/")
        assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_the_wait_counts_from_the_closed_tab_and_bots_are_never_away():
    game = live_game_with_a_bot()
    human, silent, present, robot = (seat_row(game, number) for number in range(4))
    clock.advance(timedelta(seconds=20))
    presence.left_table(seat_id=human.pk)  # the tab closed now
    presence.mark_seats_seen(seat_ids={present.pk})
    now = clock.now()
    human.refresh_from_db()
    assert human.left_table_at is not None and human.last_seen_at == human.left_table_at
    assert absence_deadline(human, now) == human.left_table_at + timedelta(seconds=60)
    silent.refresh_from_db()
    assert absence_deadline(silent, now) is None, "seen 20 s ago: still at the table"
    present.refresh_from_db()
    assert absence_deadline(present, now) is None

    clock.advance(timedelta(seconds=15))  # the silent one unseen for 35 s: dropped, 25 s left
    now = clock.now()
    silent.refresh_from_db()
    assert silent.last_seen_at is not None
    assert absence_deadline(silent, now) == silent.last_seen_at + timedelta(seconds=60)
    assert absence_deadline(robot, now) is None

    clock.advance(timedelta(seconds=120))
    presence.mark_absences()
    rows = {row.seat: row for row in Seat.objects.filter(game=game)}
    assert rows[human.seat].is_absent and rows[silent.seat].is_absent
    assert not rows[robot.seat].is_absent, "a bot is never away"
    assert absence_deadline(rows[human.seat], clock.now()) is None  # away, no more wait

    # Any request brings the player back, and the closed tab is forgotten.
    heartbeat(game, human.seat)
    human.refresh_from_db()
    assert (human.is_absent, human.left_table_at) == (False, None)
