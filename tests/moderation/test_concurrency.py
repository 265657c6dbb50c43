"""Real PostgreSQL, real threads: two moderators claim at once; the sweep skips locked rows."""

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection, transaction

from accounts.models import User
from club import clock
from moderation import services
from moderation.models import ModerationAuditEntry, Report
from tests.concurrency import run_in_threads
from tests.factories import UserFactory
from tests.moderation.conftest import file_report, over_game

pytestmark = pytest.mark.django_db(transaction=True)


def a_report() -> Report:
    players = UserFactory.create_batch(4)
    assert file_report(players[0], over_game(players), players[1]).status_code == 201
    return Report.objects.latest("pk")


@pytest.mark.parametrize("attempt", range(5))
def test_two_moderators_claim_the_same_report_exactly_one_wins(
    make_moderator: Callable[..., User], attempt: int
) -> None:
    report = a_report()
    anna, boris = make_moderator(), make_moderator()

    outcomes = run_in_threads(
        lambda: services.claim_report(report_id=report.pk, moderator=anna),
        lambda: services.claim_report(report_id=report.pk, moderator=boris),
    )

    winners = [outcome for outcome in outcomes if isinstance(outcome, Report)]
    losers = [outcome for outcome in outcomes if not isinstance(outcome, Report)]
    assert len(winners) == 1, outcomes
    assert [getattr(loser, "code", loser) for loser in losers] == ["report_claimed"]
    report.refresh_from_db()
    assert report.claimed_by_id == winners[0].claimed_by_id
    assert ModerationAuditEntry.objects.filter(report=report, action="claim").count() == 1


def test_two_moderators_resolve_at_once_only_the_holder_answers(
    make_moderator: Callable[..., User],
) -> None:
    report = a_report()
    anna, boris = make_moderator(), make_moderator()
    services.claim_report(report_id=report.pk, moderator=anna)

    outcomes = run_in_threads(
        lambda: services.resolve_report(
            report_id=report.pk, moderator=anna, decision="warn", days=None, message="a"
        ),
        lambda: services.resolve_report(
            report_id=report.pk, moderator=boris, decision="warn", days=None, message="b"
        ),
    )

    assert isinstance(outcomes[0], Report)
    # Boris is refused whichever way the race went.
    assert getattr(outcomes[1], "code", None) in {"not_claimed", "report_resolved"}
    assert User.objects.get(pk=report.accused_id).sanctions.count() == 1


def test_the_sweep_skips_a_report_locked_elsewhere(make_moderator: Callable[..., User]) -> None:
    make_moderator()
    locked, _free = a_report(), a_report()
    clock.advance(timedelta(hours=3))
    holding, release = threading.Event(), threading.Event()

    def hold_lock() -> None:
        try:
            with transaction.atomic():
                Report.objects.select_for_update(of=("self",)).get(pk=locked.pk)
                holding.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    assert holding.wait(timeout=30)
    try:
        first = services.sweep_report_deadlines()
    finally:
        release.set()
        holder.join(timeout=30)
    second = services.sweep_report_deadlines()

    assert (first.due_soon, second.due_soon) == (1, 1)
    assert Report.objects.filter(due_soon_alerted_at__isnull=False).count() == 2
