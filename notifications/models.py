"""In-app notifications, the email outbox and per-user switches.

`notify()` writes an `OutboxMessage` inside the caller's transaction; a Celery task drains the
outbox after commit, writing the in-app `Notification` and sending the email. A row's `key` is
unique per user, so a repeated `notify()` with the same dedupe key is a no-op and a redelivered
drain never delivers twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Now

from club.i18n import text_lazy


class Kind(models.TextChoices):
    GAME_STARTED = "game_started", text_lazy("Игра началась", "A game has started")
    YOUR_TURN = "your_turn", text_lazy("Ваш ход", "Your turn")
    # House rule «можно выходить?»: the partner on turn asks; the game waits for the answer.
    PARTNER_ASKS = (
        "partner_asks",
        text_lazy("Партнёр спрашивает: можно выходить?", "Your partner asks"),
    )
    TURN_REMINDER = "turn_reminder", text_lazy("Время хода истекает", "Your turn is running out")
    AUTOPLAYED = "autoplayed", text_lazy("Клуб сходил за вас", "The club played for you")
    # A correspondence turn about to time out spent an hour of the player's vacation days.
    AUTO_VACATION = "auto_vacation", text_lazy("Автоматический отпуск", "Automatic vacation")
    # A player of a correspondence game asks the table for a pause.
    PAUSE_ASKED = "pause_asked", text_lazy("Просят паузу", "A pause is asked")
    GAME_FINISHED = "game_finished", text_lazy("Игра окончена", "A game is over")
    # A player invites you to the seat they keep for you at their table (or to a rematch).
    INVITATION = "invitation", text_lazy("Приглашение за стол", "An invitation to a table")
    # A round of a tournament the player entered has begun: their game of it waits for them.
    TOURNAMENT_ROUND = (
        "tournament_round",
        text_lazy("Начался тур турнира", "A tournament round has begun"),
    )
    # The player's entry sits a round out (an odd entry out): the round counts as a win.
    TOURNAMENT_BYE = (
        "tournament_bye",
        text_lazy("Пропуск тура турнира", "A tournament round off"),
    )
    KUDOS_RECEIVED = "kudos_received", text_lazy("Тёплые слова", "Warm words")
    REPORT_ANSWERED = "report_answered", text_lazy("Ответ на жалобу", "A report answered")
    REPORT_DUE_SOON = (
        "report_due_soon",
        text_lazy("Жалоба ждёт (модераторам)", "A report waits (moderators)"),
    )
    REPORT_BREACHED = (
        "report_breached",
        text_lazy("Срок жалобы истёк (модераторам)", "A report is late (moderators)"),
    )
    SANCTION = "sanction", text_lazy("Ограничение", "A sanction")


class Notification(models.Model):
    """One in-app notification."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    payload = models.JSONField(default=dict, blank=True)
    key = models.CharField(max_length=200)
    created_at = models.DateTimeField(db_default=Now())
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_key_unique")
        ]
        indexes = [
            models.Index(
                fields=["user", "-id"],
                condition=Q(read_at__isnull=True),
                name="notification_unread",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id}"


class OutboxMessage(models.Model):
    """One notification to deliver (in the app, by email) once the notifying transaction
    commits."""

    class Status(models.TextChoices):
        # Written by notify(); the drain shows it in the app and decides about the email.
        PENDING = "pending", "pending"
        # Shown in the app; the email is to be sent.
        EMAIL = "email", "email"
        SENT = "sent", "sent"
        # No email: switched off, no address, rate-limited, or the player is at the table.
        SKIPPED = "skipped", "skipped"
        # Held for the user's daily digest, then marked DIGESTED once the digest went out.
        HELD = "held", "held"
        DIGESTED = "digested", "digested"
        # Sending failed MAX_SEND_ATTEMPTS times (e.g. the address is rejected).
        FAILED = "failed", "failed"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    payload = models.JSONField(default=dict, blank=True)
    key = models.CharField(max_length=200)
    created_at = models.DateTimeField(db_default=Now())
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    processed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="outbox_key_unique")]
        indexes = [
            models.Index(fields=["id"], condition=Q(status="pending"), name="outbox_pending"),
            models.Index(fields=["id"], condition=Q(status="email"), name="outbox_email"),
            models.Index(fields=["user"], condition=Q(status="held"), name="outbox_held"),
            # The your-turn rate limit looks up the last email sent for a game.
            models.Index(
                fields=["user", "game", "processed_at"],
                condition=Q(status="sent", kind="your_turn"),
                name="outbox_your_turn_sent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} email for user {self.user_id} ({self.status})"


class NotificationSettings(models.Model):
    """A user's switches; kinds missing from `in_app`/`email`/`push` take the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="notification_settings",
    )
    in_app = models.JSONField(default=dict, blank=True)
    email = models.JSONField(default=dict, blank=True)
    push = models.JSONField(default=dict, blank=True)
    # One email a day listing what was held instead of one email per notification.
    digest = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Notification settings of user {self.user_id}"


class DigestRun(models.Model):
    """One daily digest sent to one user; unique per day so a redelivered task sends it once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    items = models.PositiveIntegerField()
    sent_at = models.DateTimeField(db_default=Now())

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="digest_once_a_day")]

    def __str__(self) -> str:
        return f"Digest for user {self.user_id} on {self.day}"


class PushSubscription(models.Model):
    """One browser (device) that takes web pushes for a user; the endpoint names the device."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=2000, unique=True)
    # The browser's ECDH public key and auth secret (base64url) that encrypt the payload.
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(db_default=Now())
    # The device's own backoff: after a failed push (unreachable, slow, 5xx) none of its pushes
    # is claimed before `retry_at`, so a dead or hanging endpoint delays only itself. A claimed
    # push also sets it (a lease), so one device has one push in flight at a time.
    failures = models.PositiveSmallIntegerField(default=0)
    retry_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Push subscription {self.pk} of user {self.user_id}"


class PushDelivery(models.Model):
    """One notification to push to one device; unique per pair, so it is pushed once.

    The drain writes these with the in-app notification. A sender claims due ones (SKIP LOCKED,
    `next_attempt_at` moved on as a lease), sends them outside any transaction, then records
    each outcome. Deleting a gone subscription deletes its deliveries.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        # Set aside with its `failure_reason`: it failed MAX_SEND_ATTEMPTS times, or it can
        # never be sent (a refused endpoint, keys or payload; 404/410 delete instead).
        FAILED = "failed", "failed"

    message = models.ForeignKey(OutboxMessage, on_delete=models.CASCADE, related_name="+")
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Not claimed before: its backoff after a failure, or the lease of the sender that claimed
    # it (a sender that died leaves it to the next one when the lease ends).
    next_attempt_at = models.DateTimeField(db_default=Now())
    processed_at = models.DateTimeField(null=True, blank=True)
    failure_reason = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "subscription"], name="push_once_per_device")
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at", "id"], condition=Q(status="pending"), name="push_due"
            )
        ]

    def __str__(self) -> str:
        return f"Push of message {self.message_id} to device {self.subscription_id} ({self.status})"
