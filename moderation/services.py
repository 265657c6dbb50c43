"""Moderation writes: afterwords and kudos, Authority, reports, the queue, sanctions, SLA sweep."""

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from accounts.models import User
from canasta_club import clock, i18n
from canasta_club.errors import Conflict, Forbidden, Invalid, LimitReached
from games import errors as game_errors
from games import selectors as game_selectors
from games.models import Game
from games.store import Table
from moderation import errors, policy, selectors
from moderation.models import (
    Afterword,
    AuthorityChange,
    ModerationAuditEntry,
    ModeratorShift,
    Report,
    Sanction,
)
from moderation.permissions import REPORTER_IDENTITY_PERMISSION
from notifications.services import notify

logger = logging.getLogger(__name__)

# --- shared checks -------------------------------------------------------------------------------


def _table_or_404(game_id: int) -> Table:
    table = game_selectors.game_with_seats(game_id=game_id)
    if table is None:
        raise game_errors.game_not_found()
    return table


def _seats_of(table: Table) -> dict[int, int]:
    """user_id -> seat number."""
    return {seat.user_id: seat.seat for seat in table.seats}


def _require_player(table: Table, seats: dict[int, int], user: User) -> int:
    seat = seats.get(user.pk)
    if seat is None:
        raise errors.not_a_player_of(table, user)
    return seat


def _require_game_over(game: Game) -> None:
    if not game.is_over:
        raise Conflict(
            "game_not_over",
            i18n.text("Игра ещё не закончилась.", "The game is not over yet."),
        )


def _lock_users(user_ids: Iterable[int]) -> dict[int, User]:
    """Lock the users' rows in id order (no deadlocks between opposite pairs)."""
    users = User.objects.select_for_update(of=("self",)).filter(pk__in=set(user_ids)).order_by("pk")
    return {user.pk: user for user in users}


def _audit(*, moderator: User, action: str, report: Report, details: dict | None = None) -> None:
    ModerationAuditEntry.objects.create(
        moderator=moderator,
        action=action,
        report=report,
        details=details or {},
        created_at=clock.now(),
    )


# --- Authority -----------------------------------------------------------------------------------


def _record_authority_change(
    *, user_id: int, amount: int, now: datetime, **fields: object
) -> AuthorityChange:
    change = AuthorityChange.objects.create(
        user_id=user_id, amount=amount, created_at=now, **fields
    )
    if amount:
        User.objects.filter(pk=user_id).update(authority=F("authority") + amount)
    return change


def recompute_authority(*, user_ids: Iterable[int] | None = None) -> int:
    """Set User.authority to the sum of its change rows; returns how many users were off."""
    totals = (
        AuthorityChange.objects.filter(user=OuterRef("pk"))
        .order_by()
        .values("user")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    expected = Coalesce(Subquery(totals), 0)
    users = User.objects.all() if user_ids is None else User.objects.filter(pk__in=list(user_ids))
    with transaction.atomic():
        return users.exclude(authority=expected).update(authority=expected)


# --- afterwords ----------------------------------------------------------------------------------


def _partner_of(game: Game, seats: dict[int, int], author_seat: int, partner_id: int | None) -> int:
    """The partner a partner afterword goes to (the engine's partnerships): the one partner,
    or of several (six players in two teams of three) the one named; none at a table where
    each plays alone."""
    partners = game_selectors.seating_of(game=game).partners_of(author_seat)
    partner_ids = [uid for uid, seat in seats.items() if seat in partners]
    if not partner_ids:
        raise Invalid(
            "no_partner",
            i18n.text(
                "За этим столом каждый играл сам за себя: напишите всем за столом.",
                "At this table each played alone: write to the table.",
            ),
        )
    if partner_id is None and len(partner_ids) == 1:
        return partner_ids[0]
    if partner_id not in partner_ids:
        raise Invalid(
            "invalid_partner",
            i18n.text(
                "Выберите, кому из партнёров вы пишете.",
                "Choose which of your partners you write to.",
            ),
        )
    return partner_id


def create_afterword(
    *, game_id: int, author: User, to: str, text: str, partner_id: int | None = None
) -> Afterword:
    """Leave an afterword; one to a partner (kudos) and one to the table per player and game.

    `partner_id` names the partner when the author had several (else it may be left out)."""
    with transaction.atomic():
        now = clock.now()
        table = _table_or_404(game_id)
        game = table.game
        seats = _seats_of(table)
        author_seat = _require_player(table, seats, author)
        _require_game_over(game)
        ended_at = game.finished_at or game.created_at
        if ended_at < now - policy.AFTERWORD_WINDOW:
            raise Invalid(
                "afterword_window_closed",
                i18n.text(
                    "Послесловие можно оставить в течение 7 дней после игры.",
                    "Afterwords can be left within 7 days after the game.",
                ),
            )
        recipient_id = None
        bots = selectors.bots_among(user_ids=seats)
        if to == Afterword.To.PARTNER:
            recipient_id = _partner_of(game, seats, author_seat, partner_id)
            if recipient_id in bots:
                raise Invalid(
                    "partner_is_bot",
                    i18n.text(
                        "Ваш партнёр — бот: благодарность ему не передать.",
                        "Your partner is a bot: it receives no kudos.",
                    ),
                )
        locked = _lock_users([author.pk] + ([recipient_id] if recipient_id else []))
        giver = locked[author.pk]
        if giver.is_muted(now=now):
            raise Forbidden(
                "muted",
                i18n.text(
                    "Вам временно запрещено писать послесловия.",
                    "You are temporarily not allowed to write afterwords.",
                ),
            )
        if Afterword.objects.filter(game=game, author=author, to=to).exists():
            raise Conflict(
                "afterword_exists",
                i18n.text(
                    "Вы уже оставили послесловие в этой игре.",
                    "You have already left this afterword for this game.",
                ),
            )
        afterword = Afterword.objects.create(
            game=game,
            author=author,
            to=to,
            recipient_id=recipient_id,
            text=text,
            created_at=now,
        )
        if recipient_id is not None:
            amount, reason = selectors.kudos_weight(
                giver=giver, recipient_id=recipient_id, game_has_bots=bool(bots), now=now
            )
            _record_authority_change(
                user_id=recipient_id,
                amount=amount,
                kind=AuthorityChange.Kind.KUDOS,
                reason=reason,
                giver=giver,
                afterword=afterword,
                now=now,
            )
            notify(
                user_id=recipient_id,
                kind="kudos_received",
                game_id=game.pk,
                payload={
                    "afterword_id": afterword.pk,
                    "from_user_id": giver.pk,
                    "from_name": str(giver),
                    "text": afterword.text,
                },
                dedupe_key=f"afterword:{afterword.pk}",
            )
    return afterword


# --- reports -------------------------------------------------------------------------------------


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
    with transaction.atomic():
        now = clock.now()
        table = _table_or_404(game_id)
        game = table.game
        seats = _seats_of(table)
        _require_player(table, seats, reporter)
        _require_game_over(game)
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
        _lock_users([reporter.pk])
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
    with transaction.atomic():
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
        _audit(moderator=moderator, action=ModerationAuditEntry.Action.CLAIM, report=report)
    return report


def _not_claimed() -> Conflict:
    return Conflict(
        "not_claimed",
        i18n.text("Сначала возьмите жалобу в работу.", "Claim the report first."),
    )


def release_report(*, report_id: int, moderator: User) -> Report:
    """Give a claimed report back to the queue."""
    with transaction.atomic():
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
        _audit(moderator=moderator, action=ModerationAuditEntry.Action.RELEASE, report=report)
    return report


def resolve_report(
    *, report_id: int, moderator: User, decision: str, days: int | None, message: str
) -> Report:
    """Answer a report the moderator holds: the decision, a sanction, the notices."""
    with transaction.atomic():
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
        _audit(
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
    accused = _lock_users([report.accused_id])[report.accused_id]
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
    _record_authority_change(
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
    with transaction.atomic():
        report = _report_or_404(report_id, moderator)
        _audit(moderator=moderator, action=ModerationAuditEntry.Action.VIEW_REPORTER, report=report)
        return User.objects.get(pk=report.reporter_id)


def set_on_duty(*, moderator: User, on_duty: bool) -> ModeratorShift:
    shift, _ = ModeratorShift.objects.update_or_create(
        moderator=moderator, defaults={"on_duty": on_duty, "updated_at": clock.now()}
    )
    return shift


# --- appointing moderators ----------------------------------------------------------------------


@transaction.atomic
def appoint_moderator(*, user: User, reveal_reporters: bool = False) -> None:
    """Into the Moderators group, with the staff flag the Django admin asks of every user;
    `reveal_reporters` also grants seeing who filed a report (given person by person)."""
    user.groups.add(Group.objects.get(name=policy.MODERATORS_GROUP))
    if reveal_reporters:
        user.user_permissions.add(_reporter_identity_permission())
    User.objects.filter(pk=user.pk).update(is_staff=True)


@transaction.atomic
def dismiss_moderator(*, user: User) -> None:
    """Out of the group, without the reporter-identity grant, off duty; superusers stay staff."""
    user.groups.remove(Group.objects.get(name=policy.MODERATORS_GROUP))
    user.user_permissions.remove(_reporter_identity_permission())
    ModeratorShift.objects.filter(moderator=user).update(on_duty=False, updated_at=clock.now())
    User.objects.filter(pk=user.pk, is_superuser=False).update(is_staff=False)


def _reporter_identity_permission() -> Permission:
    app_label, codename = REPORTER_IDENTITY_PERMISSION.split(".")
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


# --- the SLA sweep -------------------------------------------------------------------------------


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
        with transaction.atomic():
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
