"""The SLA sweep: alerts on reports due soon (on-duty moderators) and breached (admins)."""

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from club import clock
from moderation import policy, selectors
from moderation.models import Report
from notifications.services import notify

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SweepResult:
    due_soon: int
    breached: int


def _moderators() -> list[int]:
    return list(
        User.objects.filter(is_active=True, groups__name=policy.MODERATORS_GROUP).values_list(
            "pk", flat=True
        )
    )


def _moderators_on_duty() -> list[int]:
    return list(
        User.objects.filter(
            is_active=True,
            groups__name=policy.MODERATORS_GROUP,
            moderator_shift__on_duty=True,
        ).values_list("pk", flat=True)
    )


def _admins() -> list[int]:
    return list(User.objects.filter(is_active=True, is_superuser=True).values_list("pk", flat=True))


def _alerts_by_recipient(*, report_ids: list[int], pools: list[list[int]]) -> dict[int, list[int]]:
    """user id -> the reports of the batch to alert them about.

    Each report goes to everyone of the first pool who may handle it: a moderator accused in a
    report (or otherwise conflicted) is never told it exists, and when all of a pool are
    conflicted the next pool gets the alert, so that an alert never goes nowhere.
    """
    conflicted = selectors.conflicted_users(report_ids=report_ids)
    alerts: dict[int, list[int]] = {}
    for report_id in report_ids:
        for pool in pools:
            free = [user_id for user_id in pool if user_id not in conflicted[report_id]]
            if free:
                for user_id in free:
                    alerts.setdefault(user_id, []).append(report_id)
                break
    return alerts


def _sweep_alerts(*, due: Q, flag: str, kind: str, pools: list[list[int]], now: datetime) -> int:
    """Flag due open reports batch by batch (SKIP LOCKED); one alert per batch and recipient."""
    total = 0
    while True:
        with transaction.atomic(durable=True):
            batch = list(
                Report.objects.select_for_update(of=("self",), skip_locked=True)
                .filter(due, status=Report.Status.OPEN, **{f"{flag}__isnull": True})
                .order_by("due_at", "pk")
                .values_list("pk", flat=True)[: policy.SWEEP_BATCH_SIZE]
            )
            if not batch:
                return total
            Report.objects.filter(pk__in=batch).update(**{flag: now})
            alerts = _alerts_by_recipient(report_ids=batch, pools=pools)
            for user_id, report_ids in alerts.items():
                notify(
                    user_id=user_id,
                    kind=kind,
                    payload={"report_ids": report_ids, "count": len(report_ids)},
                    # Each report is in exactly one batch, so its first id names the alert.
                    dedupe_key=f"reports-from:{report_ids[0]}",
                )
            total += len(batch)


def sweep_report_deadlines() -> SweepResult:
    """Alert on-duty moderators at 1 hour left and admins at the breach; each alert once.

    Whoever is conflicted over a report is left out; the next pool then stands in (see above).
    """
    now = clock.now()
    breached = _sweep_alerts(
        due=Q(due_at__lte=now),
        flag="breached_at",
        kind="report_breached",
        pools=[_admins(), _moderators()],
        now=now,
    )
    # A report already past due gets the breach alert, never a late "1 hour left".
    due_soon = _sweep_alerts(
        due=Q(due_at__gt=now, due_at__lte=now + policy.REPORT_DUE_SOON),
        flag="due_soon_alerted_at",
        kind="report_due_soon",
        pools=[_moderators_on_duty(), _moderators(), _admins()],
        now=now,
    )
    if breached or due_soon:
        logger.info("SLA sweep: %d reports due soon, %d breached", due_soon, breached)
    return SweepResult(due_soon=due_soon, breached=breached)
