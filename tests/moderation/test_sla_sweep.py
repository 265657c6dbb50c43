"""The 4-hour answer SLA: the minute sweep alerts on-duty moderators at 1 hour left (3 h after
filing) and admins at the breach (4 h); each alert once, on a shifted clock."""

from collections.abc import Callable
from datetime import timedelta

import pytest

from accounts.models import User
from club import clock
from games.models import Game
from moderation import policy, services, tasks
from moderation.models import Report
from notifications.models import Notification
from notifications.services import drain_outbox
from tests.factories import UserFactory
from tests.moderation.conftest import NotifyRecorder, client_for, file_report, over_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_moderator: Callable[..., User]) -> dict[str, User]:
    on_duty, off_duty = make_moderator(), make_moderator()
    client_for(on_duty).put("/api/moderation/duty/", {"on_duty": True}, format="json")
    admin = UserFactory.create(is_superuser=True, is_staff=True)
    return {"on_duty": on_duty, "off_duty": off_duty, "admin": admin}


@pytest.fixture
def report(players: list[User], game: Game) -> Report:
    assert file_report(players[0], game, players[1]).status_code == 201
    return Report.objects.get()


def test_alerts_at_three_and_four_hours_each_once(
    staff: dict[str, User], report: Report, notifications: NotifyRecorder
) -> None:
    assert services.sweep_report_deadlines() == services.SweepResult(due_soon=0, breached=0)

    clock.advance(timedelta(hours=2, minutes=59))
    assert services.sweep_report_deadlines().due_soon == 0

    clock.advance(timedelta(minutes=1))  # 3 h after filing: 1 hour left
    assert services.sweep_report_deadlines() == services.SweepResult(due_soon=1, breached=0)
    [due_soon] = notifications.of_kind("report_due_soon")
    assert due_soon.user_id == staff["on_duty"].pk
    assert due_soon.payload == {"report_ids": [report.pk], "count": 1}
    assert services.sweep_report_deadlines() == services.SweepResult(due_soon=0, breached=0)

    clock.advance(timedelta(minutes=59))
    assert services.sweep_report_deadlines().breached == 0
    clock.advance(timedelta(minutes=1))  # 4 h: the deadline
    assert services.sweep_report_deadlines() == services.SweepResult(due_soon=0, breached=1)
    [breached] = notifications.of_kind("report_breached")
    assert breached.user_id == staff["admin"].pk
    report.refresh_from_db()
    assert report.breached_at is not None
    assert report.due_at <= report.breached_at < report.due_at + timedelta(minutes=1)

    clock.advance(timedelta(hours=1))
    assert services.sweep_report_deadlines() == services.SweepResult(due_soon=0, breached=0)
    assert len(notifications.sent) == 2


def test_when_nobody_is_on_duty_every_moderator_is_alerted(
    make_moderator: Callable[..., User], report: Report, notifications: NotifyRecorder
) -> None:
    anna, boris = make_moderator(), make_moderator()

    clock.advance(timedelta(hours=3))
    services.sweep_report_deadlines()

    assert {sent.user_id for sent in notifications.of_kind("report_due_soon")} == {
        anna.pk,
        boris.pk,
    }


def test_answered_reports_are_never_alerted(
    staff: dict[str, User], report: Report, notifications: NotifyRecorder
) -> None:
    client = client_for(staff["off_duty"])
    client.post(f"/api/moderation/reports/{report.pk}/claim/")
    client.post(
        f"/api/moderation/reports/{report.pk}/resolve/",
        {"decision": "dismiss", "message": "ok"},
        format="json",
    )
    notifications.sent.clear()

    clock.advance(timedelta(hours=5))

    assert services.sweep_report_deadlines() == services.SweepResult(due_soon=0, breached=0)
    assert notifications.sent == []


def test_a_sweep_that_was_down_sends_only_the_breach(
    staff: dict[str, User], report: Report, notifications: NotifyRecorder
) -> None:
    clock.advance(timedelta(hours=6))

    assert services.sweep_report_deadlines() == services.SweepResult(due_soon=0, breached=1)
    assert [sent.kind for sent in notifications.sent] == ["report_breached"]


def test_late_answers_are_recorded_as_breaches(staff: dict[str, User], report: Report) -> None:
    clock.advance(timedelta(hours=4, minutes=30))
    client = client_for(staff["off_duty"])
    client.post(f"/api/moderation/reports/{report.pk}/claim/")
    client.post(
        f"/api/moderation/reports/{report.pk}/resolve/",
        {"decision": "dismiss", "message": "ok"},
        format="json",
    )

    report.refresh_from_db()
    assert report.breached_at is not None
    assert report.breached_at > report.due_at


def test_batches_flag_every_report_once(
    monkeypatch: pytest.MonkeyPatch,
    staff: dict[str, User],
    players: list[User],
    notifications: NotifyRecorder,
) -> None:
    monkeypatch.setattr(policy, "SWEEP_BATCH_SIZE", 2)
    for _ in range(5):
        file_report(players[0], over_game(players), players[1])

    clock.advance(timedelta(hours=3))
    assert services.sweep_report_deadlines().due_soon == 5

    alerted = [
        pk for sent in notifications.of_kind("report_due_soon") for pk in sent.payload["report_ids"]
    ]
    assert sorted(alerted) == sorted(Report.objects.values_list("pk", flat=True))
    assert len(notifications.of_kind("report_due_soon")) == 3


def test_the_celery_task_notifies_for_real(staff: dict[str, User], report: Report) -> None:
    clock.advance(timedelta(hours=4))

    tasks.sweep_report_deadlines.apply()
    tasks.sweep_report_deadlines.apply()
    drain_outbox()  # what the Celery worker does after commit

    [breach] = Notification.objects.filter(kind="report_breached")
    assert breach.user_id == staff["admin"].pk
    assert breach.payload["report_ids"] == [report.pk]
    assert Notification.objects.filter(kind="report_due_soon").count() == 0
