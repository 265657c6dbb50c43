"""Afterwords, Authority changes, reports and their SLA, sanctions, the moderators' audit log."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from club.i18n import text_lazy
from moderation import policy


class Afterword(models.Model):
    """Words after a game: to the partner (kudos) or to the whole table."""

    class To(models.TextChoices):
        PARTNER = "partner", "partner"
        TABLE = "table", "table"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="afterwords")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="afterwords_written"
    )
    to = models.CharField(max_length=8, choices=To.choices)
    # The partner for a partner afterword; empty for the table.
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="afterwords_received",
    )
    text = models.CharField(max_length=policy.AFTERWORD_MAX_LENGTH)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ("created_at", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=("game", "author", "to"), name="moderation_one_afterword_each_way"
            ),
            models.CheckConstraint(
                condition=(
                    Q(to="partner", recipient__isnull=False) | Q(to="table", recipient=None)
                ),
                name="moderation_afterword_recipient_matches_to",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author} → {self.to} (game {self.game_id})"


class AuthorityChange(models.Model):
    """One change of a player's Authority; User.authority is the sum of `amount`."""

    class Kind(models.TextChoices):
        KUDOS = "kudos", "kudos"
        REPORT_UPHELD = "report_upheld", "report upheld"

    class Reason(models.TextChoices):
        COUNTED = "counted", "counted"
        GIVER_TOO_NEW = "giver_too_new", "giver's account is too new"
        GIVER_FEW_GAMES = "giver_few_games", "giver has too few finished games"
        PAIR_LIMIT = "pair_limit", "this pair already counted enough this month"
        SANCTION = "sanction", "sanction imposed"
        GAME_WITH_BOTS = "game_with_bots", "a game with bots moves no Authority"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="authority_changes"
    )
    amount = models.IntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    reason = models.CharField(max_length=16, choices=Reason.choices)
    # Who caused it: the kudos giver (a moderator's decision is on the report).
    giver = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="authority_given",
    )
    afterword = models.OneToOneField(
        Afterword,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="authority_change",
    )
    report = models.OneToOneField(
        "Report",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="authority_change",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = [
            # The monthly pair limit looks up counted kudos between two players.
            models.Index(fields=("giver", "user", "created_at"), name="moderation_kudos_pair_idx"),
            models.Index(fields=("user", "created_at"), name="moderation_authority_user_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.amount:+d} ({self.kind}/{self.reason})"


class Report(models.Model):
    """An anonymous report about a player of a game that is over; answered within the SLA."""

    class Reason(models.TextChoices):
        RUDENESS = "rudeness", text_lazy("грубость", "rudeness")
        MOCKERY = "mockery", text_lazy("насмешки", "mockery")
        CHEATING = "cheating", text_lazy("нечестная игра", "cheating")
        OTHER = "other", text_lazy("другое", "something else")

    class Status(models.TextChoices):
        OPEN = "open", "open"
        RESOLVED = "resolved", "resolved"

    class Decision(models.TextChoices):
        DISMISS = "dismiss", text_lazy("отклонена", "dismissed")
        WARN = "warn", text_lazy("предупреждение", "a warning")
        MUTE = "mute", text_lazy("запрет писать", "a mute")
        SUSPEND = "suspend", text_lazy("отстранение от игры", "a suspension")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_filed"
    )
    accused = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    text = models.CharField(max_length=policy.REPORT_TEXT_MAX_LENGTH, blank=True)
    afterword = models.ForeignKey(
        Afterword, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField(db_index=True)

    # One moderator at a time; the claim lapses after CLAIM_IDLE_TIMEOUT without a renewal.
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_claimed",
    )
    claim_expires_at = models.DateTimeField(null=True, blank=True)

    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_resolved",
    )
    decision = models.CharField(max_length=8, choices=Decision.choices, blank=True)
    sanction_days = models.PositiveIntegerField(null=True, blank=True)
    moderator_message = models.TextField(blank=True)

    # Alert flags of the SLA sweep: each alert is sent once.
    due_soon_alerted_at = models.DateTimeField(null=True, blank=True)
    breached_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("due_at", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=("reporter", "accused", "game"), name="moderation_one_report_per_game"
            ),
        ]
        indexes = [
            # The queue and the SLA sweep read only open reports, a small share of the table.
            models.Index(
                fields=("due_at", "id"),
                condition=Q(status="open"),
                name="moderation_open_report_due_idx",
            ),
            models.Index(fields=("reporter", "created_at"), name="moderation_reporter_day_idx"),
            models.Index(fields=("accused", "created_at"), name="moderation_accused_idx"),
            models.Index(fields=("resolved_at",), name="moderation_report_resolved_idx"),
        ]
        permissions = [("view_reporter_identity", "Can see who filed a report")]

    def __str__(self) -> str:
        return f"Report #{self.pk} ({self.reason}, {self.status})"


class Sanction(models.Model):
    """A sanction a moderator imposed; the one in force is on accounts.User."""

    class Kind(models.TextChoices):
        WARN = "warn", "warn"
        MUTE = "mute", "mute"
        SUSPEND = "suspend", "suspend"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    report = models.OneToOneField(Report, on_delete=models.PROTECT, related_name="sanction")
    ends_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = [models.Index(fields=("user", "created_at"), name="moderation_sanction_user_idx")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user}"


class ModeratorShift(models.Model):
    """Whether a moderator is on duty: on-duty moderators get the "1 hour left" alerts."""

    moderator = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderator_shift"
    )
    on_duty = models.BooleanField(default=False)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.moderator}: {'on duty' if self.on_duty else 'off duty'}"


class ModerationAuditEntry(models.Model):
    """Every moderator action, for review: who did what to which report, when."""

    class Action(models.TextChoices):
        CLAIM = "claim", "claim"
        RELEASE = "release", "release"
        RESOLVE = "resolve", "resolve"
        VIEW_REPORTER = "view_reporter", "view reporter identity"

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_actions"
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="audit_entries")
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = [
            models.Index(fields=("report", "created_at"), name="moderation_audit_report_idx")
        ]
        verbose_name_plural = "moderation audit entries"

    def __str__(self) -> str:
        return f"{self.moderator} {self.action} report #{self.report_id}"
