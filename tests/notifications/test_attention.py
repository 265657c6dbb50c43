"""Notifications that respect attention: a live player whose turns the club plays is told once
per absence (bell, email and push alike), and not at all while their table is open."""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.core import mail

from club import clock
from games.models import Game, Move, Seat
from games.services import presence, timeouts
from notifications import services, texts
from notifications.models import Notification, OutboxMessage, PushDelivery
from tests.factories import started_game
from tests.fake_push import FakePushService
from tests.timing.conftest import new_user, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def push_service() -> Iterator[FakePushService]:
    service = FakePushService().start()
    yield service
    service.stop()


def seat_of(game: Game, seat: int) -> Seat:
    return Seat.objects.select_related("user").get(game=game, seat=seat)


def let_turns_run_out(game: Game, *, present: set[int], turns: int) -> None:
    """Nobody moves; the seats in `present` keep their table open (as an open page's event
    stream does, every 25 s at most), and the sweep plays each turn when it is due."""
    played = 0
    while played < turns:
        clock.advance(timedelta(seconds=16))
        presence.mark_seats_seen(seat_ids=present)
        played += timeouts.sweep_until_done()
        assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def autoplayed_turns(game: Game, seat: int) -> int:
    return Move.objects.filter(game=game, seat=seat, automatic=True, action__type="discard").count()


def test_a_live_player_away_is_told_once_per_absence_and_one_at_the_table_never(
    celery_worker: None, push_service: FakePushService
) -> None:
    game = started_game(
        players=[new_user() for _ in range(4)], mode=Game.Mode.LIVE, length=Game.Length.MATCH
    )
    seats = [seat_of(game, number) for number in range(4)]
    away, watching = seats[1], seats[2]
    for seat in (away, watching):
        browser = push_service.browser(f"phone-{seat.seat}")
        services.subscribe_push(
            user=seat.user, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth
        )
    present = {seat.pk for seat in seats if seat != away}
    presence.left_table(seat_id=away.pk)  # their tab closed

    let_turns_run_out(game, present=present, turns=12)
    assert autoplayed_turns(game, away.seat) == 3
    assert autoplayed_turns(game, watching.seat) == 3

    # Through the real broker and worker: the bell, one email and one push for the absence.
    wait_for(lambda: sent_for_autoplay(away) == (1, 1, 1))
    # The table open all along: nothing on any channel, not even a skipped outbox row.
    assert sent_for_autoplay(watching) == (0, 0, 0)
    assert not OutboxMessage.objects.filter(user=watching.user, kind="autoplayed").exists()

    # Back at the table, then gone again: a new absence, one more notification.
    presence.mark_seats_seen(seat_ids={away.pk})
    let_turns_run_out(game, present=present | {away.pk}, turns=4)
    presence.left_table(seat_id=away.pk)
    let_turns_run_out(game, present=present, turns=8)
    wait_for(lambda: sent_for_autoplay(away) == (2, 2, 2))
    assert sent_for_autoplay(watching) == (0, 0, 0)


def sent_for_autoplay(seat: Seat) -> tuple[int, int, int]:
    """The "club played for you" notifications a seat's player got: (bell, emails, pushes)."""
    bell = Notification.objects.filter(user=seat.user, kind="autoplayed").count()
    title = texts.title(kind="autoplayed", game_id=seat.game_id, language=seat.user.language)
    emails = sum(
        1 for email in mail.outbox if email.to == [seat.user.email] and email.subject == title
    )
    pushes = PushDelivery.objects.filter(
        message__user=seat.user, message__kind="autoplayed", status=PushDelivery.Status.SENT
    ).count()
    return bell, emails, pushes


def test_a_live_player_who_dropped_without_a_word_is_told_once(push_service: FakePushService):
    """No page said goodbye (a crashed browser): unseen longer than an open table ever is."""
    game = started_game(
        players=[new_user() for _ in range(4)], mode=Game.Mode.LIVE, length=Game.Length.MATCH
    )
    seats = [seat_of(game, number) for number in range(4)]
    silent = seats[3]
    let_turns_run_out(game, present={seat.pk for seat in seats if seat != silent}, turns=12)
    services.drain_outbox()
    assert autoplayed_turns(game, silent.seat) == 3
    told = Notification.objects.filter(kind="autoplayed")
    assert list(told.values_list("user_id", flat=True)) == [silent.user_id]


def test_an_async_player_looking_at_the_game_is_not_told_of_the_turn_played_for_them():
    game = started_game(players=[new_user() for _ in range(4)])
    turn = seat_of(game, Game.objects.get(pk=game.pk).turn_seat or 0)
    clock.advance(timedelta(days=1, seconds=1))
    presence.mark_seats_seen(seat_ids={turn.pk})  # looking at the game as its turn runs out
    assert timeouts.sweep() == 1
    services.drain_outbox()
    assert not Notification.objects.filter(kind="autoplayed").exists()
