"""Reports and the queue: filing one, claiming, releasing and resolving it, the sanction it
imposes, who filed it (audited)."""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from club import clock, i18n
from club.errors import Conflict, Invalid, LimitReached
from moderation import errors, policy, selectors
from moderation.models import Afterword, AuthorityChange, ModerationAuditEntry, Report, Sanction
from moderation.services.authority import record_authority_change
from moderation.services.checks import (
    audit,
    lock_users,
    require_game_over,
    require_player,
    seats_of,
    table_or_404,
)
from notifications.services import notify


def create_report(
    *,
    reporter: User,
    game_id: int,
    accused_id: int,
    reason: str,
    text: str,
    afterword_id: int | None,
) -> Report:
    """File an anonymous report about another player of a game that is over."""
    with transaction.atomic(durable=True):
        now = clock.now()
        table = table_or_404(game_id)
        game = table.game
        seats = seats_of(table)
        require_player(table, seats, reporter)
        require_game_over(game)
        if accused_id == reporter.pk or accused_id not in seats:
            raise Invalid(
                "invalid_accused",
                i18n.text(
                    "Пожаловаться можно только на другого игрока этой игры.",
                    "You can only report another player of this game.",
                ),
            )
        if accused_id in selectors.bots_among(user_ids=seats):
            raise Invalid(
                "accused_is_bot",
                i18n.text(
                    "Это бот: на него нельзя пожаловаться.", "That is a bot: it cannot be reported."
                ),
            )
        afterword = None
        if afterword_id is not None:
            # Evidence must be words of the accused in this game that the reporter could read.
            afterword = (
                Afterword.objects.filter(pk=afterword_id, game=game, author_id=accused_id)
                .filter(selectors.readable_by(reporter))
                .first()
            )
            if afterword is None:
                raise Invalid(
                    "invalid_afterword",
                    i18n.text(
                        "Это послесловие не относится к жалобе.",
                        "That afterword does not belong to this report.",
                    ),
                )
        # Serialises one reporter's filings: the duplicate check and the daily limit hold under
        # concurrency (the unique constraint stays as the last guard).
        lock_users([reporter.pk])
        if Report.objects.filter(reporter=reporter, accused_id=accused_id, game=game).exists():
            raise _duplicate_report()
        filed_today = Report.objects.filter(
            reporter=reporter, created_at__gt=now - timedelta(days=1)
        ).count()
        if filed_today >= policy.REPORTS_PER_DAY:
            raise LimitReached(
                "report_limit",
                i18n.text(
                    "Слишком много жалоб за сутки. Попробуйте завтра.",
                    "Too many reports in a day. Please try again tomorrow.",
                ),
            )
        return Report.objects.create(
            game=game,
            reporter=reporter,
            accused_id=accused_id,
            reason=reason,
            text=text,
            afterword=afterword,
            created_at=now,
            due_at=now + policy.REPORT_SLA,
        )


def _duplicate_report() -> Conflict:
    return Conflict(
        "duplicate_report",
        i18n.text(
            "Вы уже пожаловались на этого игрока в этой игре.",
            "You have already reported this player for this game.",
        ),
    )


def _report_or_404(report_id: int, moderator: User) -> Report:
    """Every moderator action reads its report here or through the same filter: a report with a
    conflict of interest is "not found", so a 409 cannot reveal that it exists either."""
    report = (
        selectors.reports_moderator_may_handle(moderator=moderator).filter(pk=report_id).first()
    )
    if report is None:
        raise errors.report_not_found()
    return report


def _report_resolved() -> Conflict:
    return Conflict(
        "report_resolved",
        i18n.text("Жалоба уже рассмотрена.", "The report has already been answered."),
    )


def claim_report(*, report_id: int, moderator: User) -> Report:
    """Take a report; exactly one moderator holds it. Claiming it again renews the claim."""
    with transaction.atomic(durable=True):
        now = clock.now()
        claimed = (
            selectors.reports_moderator_may_handle(moderator=moderator)
            .filter(pk=report_id, status=Report.Status.OPEN)
            .filter(~selectors.live_claim(now) | Q(claimed_by=moderator))
            .update(claimed_by=moderator, claim_expires_at=now + policy.CLAIM_IDLE_TIMEOUT)
        )
        report = _report_or_404(report_id, moderator)
        if not claimed:
            if report.status == Report.Status.RESOLVED:
                raise _report_resolved()
            raise Conflict(
                "report_claimed",
                i18n.text(
                    "Жалобу уже взял другой модератор.",
                    "Another moderator has already claimed this report.",
                ),
            )
        audit(moderator=moderator, action=ModerationAuditEntry.Action.CLAIM, report=report)
    return report


def _not_claimed() -> Conflict:
    return Conflict(
        "not_claimed",
        i18n.text("Сначала возьмите жалобу в работу.", "Claim the report first."),
    )


def release_report(*, report_id: int, moderator: User) -> Report:
    """Give a claimed report back to the queue."""
    with transaction.atomic(durable=True):
        released = (
            selectors.reports_moderator_may_handle(moderator=moderator)
            .filter(pk=report_id, status=Report.Status.OPEN, claimed_by=moderator)
            .update(claimed_by=None, claim_expires_at=None)
        )
        report = _report_or_404(report_id, moderator)
        if not released:
            if report.status == Report.Status.RESOLVED:
                raise _report_resolved()
            raise _not_claimed()
        audit(moderator=moderator, action=ModerationAuditEntry.Action.RELEASE, report=report)
    return report


def resolve_report(
    *, report_id: int, moderator: User, decision: str, days: int | None, message: str
) -> Report:
    """Answer a report the moderator holds: the decision, a sanction, the notices."""
    with transaction.atomic(durable=True):
        now = clock.now()
        report = (
            selectors.reports_moderator_may_handle(moderator=moderator)
            .select_for_update(of=("self",))
            .select_related("reporter", "accused")
            .filter(pk=report_id)
            .first()
        )
        if report is None:
            raise errors.report_not_found()
        if report.status == Report.Status.RESOLVED:
            raise _report_resolved()
        # A lapsed claim still counts while no other moderator has taken the report over.
        if report.claimed_by_id != moderator.pk:
            raise _not_claimed()
        sanctioned = decision != Report.Decision.DISMISS
        if sanctioned and decision != Report.Decision.WARN and not days:
            raise Invalid(
                "days_required",
                i18n.text("Укажите срок в днях.", "Give the number of days."),
            )
        report.status = Report.Status.RESOLVED
        report.decision = decision
        report.sanction_days = (
            days if decision in (Report.Decision.MUTE, Report.Decision.SUSPEND) else None
        )
        report.moderator_message = message
        report.resolved_at = now
        report.resolved_by = moderator
        report.claim_expires_at = None
        if report.breached_at is None and now > report.due_at:
            report.breached_at = now
        report.save()
        if sanctioned:
            _impose_sanction(report=report, now=now)
        notify(
            user_id=report.reporter_id,
            kind="report_answered",
            game_id=report.game_id,
            payload={"report_id": report.pk, "decision": decision, "message": message},
            dedupe_key=f"report:{report.pk}",
        )
        audit(
            moderator=moderator,
            action=ModerationAuditEntry.Action.RESOLVE,
            report=report,
            details={"decision": decision, "days": report.sanction_days},
        )
    return report


def _impose_sanction(*, report: Report, now: datetime) -> Sanction:
    """Record the sanction, put it in force on the accused, lower their Authority, tell them.

    The notice names neither the reporter nor the report: only what, until when, and why.
    """
    accused = lock_users([report.accused_id])[report.accused_id]
    ends_at = now + timedelta(days=report.sanction_days) if report.sanction_days else None
    if report.decision in (Report.Decision.MUTE, Report.Decision.SUSPEND):
        assert ends_at is not None
        # A suspended player is also silenced; a longer sanction in force is never shortened.
        accused.muted_until = max(filter(None, [accused.muted_until, ends_at]))
        if report.decision == Report.Decision.SUSPEND:
            accused.suspended_until = max(filter(None, [accused.suspended_until, ends_at]))
        accused.save(update_fields=["muted_until", "suspended_until"])
    sanction = Sanction.objects.create(
        user=accused, kind=report.decision, report=report, ends_at=ends_at, created_at=now
    )
    record_authority_change(
        user_id=accused.pk,
        amount=-policy.UPHELD_REPORT_PENALTY[report.decision],
        kind=AuthorityChange.Kind.REPORT_UPHELD,
        reason=AuthorityChange.Reason.SANCTION,
        report=report,
        now=now,
    )
    notify(
        user_id=accused.pk,
        kind="sanction",
        payload={
            "sanction": sanction.kind,
            "until": ends_at.isoformat() if ends_at else None,
            "reason": report.reason,
        },
        dedupe_key=f"sanction:{sanction.pk}",
    )
    return sanction


def reveal_reporter(*, report_id: int, moderator: User) -> User:
    """Who filed the report (the caller holds moderation.view_reporter_identity); audited."""
    with transaction.atomic(durable=True):
        report = _report_or_404(report_id, moderator)
        audit(moderator=moderator, action=ModerationAuditEntry.Action.VIEW_REPORTER, report=report)
        return User.objects.get(pk=report.reporter_id)
