"""The email outbox: written in the notifying transaction, sent once after commit."""

import logging
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction

from accounts.models import User
from club import clock
from games import services as game_services
from notifications import services
from notifications.models import Notification, NotificationSettings, OutboxMessage
from notifications.services import drain, drain_outbox, emails, notify
from tests.concurrency import run_in_threads
from tests.factories import UserFactory, started_game
from tests.timing.conftest import broker_down, new_user, turn_of, user_at, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def emails_to(user: User) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if message.to == [user.email]]


def test_notify_is_sent_once_by_a_real_worker_after_commit(celery_worker):
    user = new_user()
    with transaction.atomic():
        notify(user_id=user.pk, kind="kudos_received", payload={"text": "Спасибо!"}, dedupe_key="1")
        notify(user_id=user.pk, kind="kudos_received", payload={"text": "Спасибо!"}, dedupe_key="1")
        notify(user_id=user.pk, kind="sanction", dedupe_key="2")
    wait_for(lambda: len(emails_to(user)) == 2)
    wait_for(lambda: not OutboxMessage.objects.filter(status="pending").exists())
    assert drain_outbox() == 0
    assert len(emails_to(user)) == 2
    assert Notification.objects.filter(user=user).count() == 2
    assert "Спасибо!" in next(m.body for m in mail.outbox if "kudos" not in m.subject)


def test_nothing_is_sent_when_the_transaction_rolls_back():
    user = new_user()
    with pytest.raises(RuntimeError), transaction.atomic():
        notify(user_id=user.pk, kind="kudos_received")
        raise RuntimeError
    assert drain_outbox() == 0
    assert not Notification.objects.exists()


def test_a_drain_killed_midway_loses_nothing_and_doubles_nothing(monkeypatch):
    user = new_user()
    for index in range(3):
        notify(user_id=user.pk, kind="kudos_received", dedupe_key=str(index))
    mail.outbox.clear()  # notify outside a transaction may already have been drained

    OutboxMessage.objects.update(status=OutboxMessage.Status.PENDING, processed_at=None)
    real_email = emails._email
    calls = []

    class WorkerKilled(BaseException):
        pass

    def dies_on_the_second_email(message, *, mail):
        calls.append(message.pk)
        if len(calls) == 2:
            raise WorkerKilled  # the process dies in the middle of the drain
        real_email(message, mail=mail)

    monkeypatch.setattr(emails, "_email", dies_on_the_second_email)
    with pytest.raises(WorkerKilled):
        drain_outbox()
    monkeypatch.setattr(emails, "_email", real_email)
    assert len(mail.outbox) == 1
    assert OutboxMessage.objects.filter(status="email").count() == 2

    assert drain_outbox() == 2
    assert drain_outbox() == 0
    assert sorted(m.extra_headers["Message-ID"] for m in mail.outbox) == sorted(
        f"<outbox-{pk}@canasta.club>" for pk in OutboxMessage.objects.values_list("pk", flat=True)
    )


def test_claimed_rows_are_skipped_by_a_concurrent_drain_then_sent_once():
    user = new_user()
    with transaction.atomic():
        for index in range(20):
            notify(user_id=user.pk, kind="kudos_received", dedupe_key=str(index))
    mail.outbox.clear()
    OutboxMessage.objects.update(status=OutboxMessage.Status.PENDING)
    sent = run_in_threads(drain_outbox, drain_outbox, drain_outbox)
    assert sum(sent) == 20
    assert len(mail.outbox) == 20
    assert len({m.extra_headers["Message-ID"] for m in mail.outbox}) == 20


def test_broker_down_the_move_is_stored_and_the_periodic_drain_catches_up(caplog):
    game = started_game()
    seat = turn_of(game)
    with broker_down(), caplog.at_level(logging.WARNING, logger="club.broker"):
        outcome = game_services.make_move(
            game_id=game.pk, user=user_at(game, seat), version=game.version, action={"type": "draw"}
        )
        notify(user_id=user_at(game, seat).pk, kind="kudos_received")
    assert isinstance(outcome, game_services.MoveResult)
    assert "Broker unavailable" in caplog.text
    game.refresh_from_db()
    assert game.version == 1
    assert OutboxMessage.objects.filter(status="pending").exists()
    assert drain_outbox() >= 1  # what beat's periodic drain does once the broker is back
    assert not OutboxMessage.objects.filter(status="pending").exists()


def test_concurrent_drains_still_send_one_your_turn_email_an_hour(monkeypatch):
    user = new_user()
    game = started_game()
    for version in range(2):
        notify(user_id=user.pk, kind="your_turn", game_id=game.pk, dedupe_key=f"v{version}")
    drain._deliver_in_app(batch_size=10)  # both rows now wait for their email
    mail.outbox.clear()
    send = emails._email

    def slow_email(message, *, mail):
        time.sleep(0.3)  # the other drain checks the hourly limit meanwhile
        send(message, mail=mail)

    monkeypatch.setattr(emails, "_email", slow_email)
    run_in_threads(drain_outbox, drain_outbox)

    assert len(emails_to(user)) == 1
    mine = OutboxMessage.objects.filter(user=user, kind="your_turn")
    assert sorted(mine.values_list("status", flat=True)) == ["sent", "skipped"]


def test_your_turn_email_at_most_once_an_hour_per_game():
    user = new_user()
    game = started_game()
    mail.outbox.clear()
    for version in range(3):
        notify(user_id=user.pk, kind="your_turn", game_id=game.pk, dedupe_key=f"v{version}")
        drain_outbox()
    assert len(emails_to(user)) == 1
    assert Notification.objects.filter(user=user, kind="your_turn").count() == 3
    clock.advance(timedelta(minutes=61))
    notify(user_id=user.pk, kind="your_turn", game_id=game.pk, dedupe_key="later")
    drain_outbox()
    assert len(emails_to(user)) == 2


def test_your_turn_is_not_sent_to_a_player_looking_at_the_game():
    game = started_game()
    seat = turn_of(game)
    player = user_at(game, seat)
    notify(user_id=player.pk, kind="your_turn", game_id=game.pk, dedupe_key="x")
    drain_outbox()
    assert not Notification.objects.filter(user=player, kind="your_turn", key="your_turn:x")
    clock.advance(timedelta(minutes=5))
    notify(user_id=player.pk, kind="your_turn", game_id=game.pk, dedupe_key="y")
    drain_outbox()
    assert Notification.objects.filter(user=player, kind="your_turn", key="your_turn:y").exists()


def test_switched_off_kinds_are_neither_shown_nor_emailed():
    user = new_user()
    NotificationSettings.objects.create(
        user=user, in_app={"kudos_received": False}, email={"sanction": False}
    )
    mail.outbox.clear()
    notify(user_id=user.pk, kind="kudos_received", dedupe_key="a")
    notify(user_id=user.pk, kind="sanction", dedupe_key="b")
    drain_outbox()
    assert list(Notification.objects.filter(user=user).values_list("kind", flat=True)) == [
        "sanction"
    ]
    assert [m.subject for m in emails_to(user)] == ["Вам сказали тёплые слова"]


def test_digest_users_get_one_email_a_day_listing_what_they_missed():
    user = new_user()
    NotificationSettings.objects.create(user=user, digest=True)
    mail.outbox.clear()
    for index in range(3):
        notify(user_id=user.pk, kind="kudos_received", dedupe_key=str(index))
    drain_outbox()
    assert emails_to(user) == []
    assert services.send_daily_digests() == 1
    assert services.send_daily_digests() == 0  # once a day, however often beat asks
    (digest,) = emails_to(user)
    assert digest.body.count("•") == 3
    notify(user_id=user.pk, kind="sanction", dedupe_key="next")
    drain_outbox()
    assert services.send_daily_digests() == 0
    clock.advance(timedelta(days=1))
    assert services.send_daily_digests() == 1
    assert len(emails_to(user)) == 2


def test_the_digest_email_goes_out_once_its_run_is_committed():
    user = new_user()
    NotificationSettings.objects.create(user=user, digest=True)
    mail.outbox.clear()
    notify(user_id=user.pk, kind="kudos_received")
    drain_outbox()
    with transaction.atomic():
        assert services.send_daily_digests() == 1
        assert emails_to(user) == []  # not before the commit
    assert len(emails_to(user)) == 1

    notify(user_id=user.pk, kind="sanction")
    drain_outbox()
    clock.advance(timedelta(days=1))
    with pytest.raises(RuntimeError), transaction.atomic():
        assert services.send_daily_digests() == 1
        raise RuntimeError("the run rolls back")
    assert len(emails_to(user)) == 1  # nothing was sent for a run that never happened
    assert services.send_daily_digests() == 1
    assert len(emails_to(user)) == 2


def test_game_start_turn_and_finish_reach_every_player_once():
    players = UserFactory.create_batch(4)
    mail.outbox.clear()
    game = started_game(players=players)
    drain_outbox()
    for player in players:
        assert Notification.objects.filter(user=player, kind="game_started").count() == 1
    with transaction.atomic():
        game_services.finish_game_abandoned(locked=game_services.lock_game(game_id=game.pk), seat=0)
    drain_outbox()
    for player in players:
        assert Notification.objects.filter(user=player, kind="game_finished").count() == 1
        subjects = [m.subject for m in emails_to(player)]
        assert subjects.count(f"Игра №{game.pk} окончена") == 1
