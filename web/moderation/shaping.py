"""What the moderators' desk and a player's own reports show, put together from the
moderation selectors and shaped for a template."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache

from accounts.models import User
from club import clock
from moderation import policy
from moderation import selectors as moderation_selectors
from moderation.models import Afterword, Report

QUEUE_PAGE = 50


def my_reports(*, user: User) -> list[dict[str, Any]]:
    """The reports the user filed, with the answers (they name the accused: the reporter knows)."""
    return [
        {
            "report": report,
            "reason": report.get_reason_display(),
            "decision": report.get_decision_display(),
        }
        for report in moderation_selectors.reports_filed_by(user=user).select_related("accused")
    ]


@dataclass(frozen=True)
class QueueRow:
    report: Report
    reason: str
    seconds_left: int
    # The queue marks reports due within the hour the SLA alerts warn about, and overdue ones.
    due_soon: bool
    overdue: bool


def moderation_queue(
    *,
    moderator: User,
    status_filter: str,
    reason: str | None,
    overdue: bool,
    offset: int,
) -> tuple[list[QueueRow], bool]:
    """One page of the queue and whether there is a next one."""
    now = clock.now()
    reports = list(
        moderation_selectors.report_queue(
            moderator=moderator,
            status_filter=status_filter,
            reason=reason,
            now=now,
            overdue=overdue,
        )[offset : offset + QUEUE_PAGE + 1]
    )
    return [_queue_row(report, now) for report in reports[:QUEUE_PAGE]], len(reports) > QUEUE_PAGE


def _queue_row(report: Report, now: datetime) -> QueueRow:
    left = int((report.due_at - now).total_seconds())
    is_open = report.status == Report.Status.OPEN
    return QueueRow(
        report=report,
        reason=report.get_reason_display(),
        seconds_left=left,
        due_soon=is_open and 0 < left <= policy.REPORT_DUE_SOON.total_seconds(),
        overdue=is_open and left <= 0,
    )


@dataclass(frozen=True)
class ReportDesk:
    row: QueueRow
    claimed_by_me: bool
    claim_live: bool
    move_log: dict[str, Any]
    history: dict[str, Any]
    table_messages: list[Afterword]


# The desk's figures scan the last 30 days of reports; they move slowly, so a page shows them
# up to this old (per moderator: each one's figures leave out the reports they may not handle).
DESK_FIGURES_SECONDS = 30


def desk_figures(*, moderator: User) -> dict[str, Any]:
    key = f"web:desk_figures:{moderator.pk}"
    figures: dict[str, Any] | None = cache.get(key)
    if figures is None:
        figures = moderation_selectors.moderation_stats(moderator=moderator)
        cache.set(key, figures, DESK_FIGURES_SECONDS)
    return figures


def report_desk(*, report_id: int, moderator: User) -> ReportDesk:
    """A report with its evidence; raises NotFound for one the moderator may not handle."""
    report = moderation_selectors.report_for_moderator(report_id=report_id, moderator=moderator)
    return ReportDesk(
        row=_queue_row(report, clock.now()),
        claimed_by_me=report.claimed_by_id == moderator.pk,
        claim_live=report.claim_is_live,  # type: ignore[attr-defined]  # annotated by the selector
        move_log=moderation_selectors.move_log_summary(game=report.game),
        history=moderation_selectors.accused_history(
            user_id=report.accused_id, excluding_report_id=report.pk
        ),
        table_messages=list(moderation_selectors.table_messages(game_id=report.game_id)),
    )
