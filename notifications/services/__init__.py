"""Writes: notify, drain the email outbox, daily digests, settings, read marks.

A leaf app: it knows users, and of games only their ids (the games app calls notify()).

notify() writes inside its caller's transaction; every other entry point, and each unit of a
drain (a batch delivered, pushes claimed or recorded, an email sent), runs its own
durable transaction, so none can be called inside another's and half-commit with it.
"""

import functools
import logging
import math
import threading
import time
import uuid
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import connection, transaction
from django.db.models import F, Min, Q, Subquery
from django.utils.module_loading import import_string

from club import clock
from club.broker import publish
from club.errors import Invalid
from club.i18n import text
from notifications import push_endpoints, texts, webpush
from notifications.models import (
    DigestRun,
    Kind,
    Notification,
    NotificationSettings,
    OutboxMessage,
    PushDelivery,
    PushSubscription,
)
from notifications.selectors import settings_for_user_id

logger = logging.getLogger(__name__)

YOUR_TURN_EMAIL_INTERVAL = timedelta(hours=1)
# What a player looking at the game's table sees there: not notified at all (the games app also
# tells an absent player of turns played for them once per absence, not once per turn).
SPARED_AT_TABLE = (Kind.YOUR_TURN, Kind.PARTNER_ASKS, Kind.AUTOPLAYED)
# A drain sends emails for this long at most (beat starts the next one every 10 s), so a
# backlog keeps a worker busy without tying it up for good.
DRAIN_BUDGET_SECONDS = 8.0
OUTBOX_BATCH = 200
# An email that failed this many times (e.g. a rejected address) is given up, not retried forever.
MAX_SEND_ATTEMPTS = 5
# The most a notification waits for its drain to be published (see DrainPublisher).
DRAIN_PUBLISH_INTERVAL = 1.0
# Web push: deliveries claimed at a time (sent webpush.PUSH_SENDERS at once); a claim holds them
# (and their devices) this long, well past a push's deadline, should the sender die meanwhile.
PUSH_BATCH = 64
PUSH_LEASE = timedelta(minutes=2)
# A failing device or delivery rests 10 s, 20 s, 40 s ... at most an hour before the next try.
PUSH_BACKOFF_FIRST = timedelta(seconds=10)
PUSH_BACKOFF_MAX = timedelta(hours=1)
# A user's devices taking web pushes; subscribing one more drops the oldest.
MAX_PUSH_DEVICES = 10


def notify(
    *,
    user_id: int,
    kind: str,
    game_id: int | None = None,
    payload: dict[str, Any] | None = None,
    dedupe_key: str | None = None,
) -> None:
    """Record a notification inside the caller's transaction: one outbox row, nothing else.

    After commit a task drains the outbox: it shows the notification in the app and emails it,
    as the user's switches say. The same `dedupe_key` for the same user and kind makes a repeated
    call a no-op. One cheap INSERT, so the move service and the deadline sweep stay fast.
    """
    if kind not in Kind.values:
        raise ValueError(f"Unknown notification kind: {kind!r}")
    key = f"{kind}:{dedupe_key if dedupe_key is not None else uuid.uuid4().hex}"
    message = OutboxMessage(
        user_id=user_id, kind=kind, game_id=game_id, payload=payload or {}, key=key
    )
    buffer = getattr(_buffered, "messages", None)
    if buffer is not None:
        buffer.append(message)
        return
    OutboxMessage.objects.bulk_create([message], ignore_conflicts=True)
    _drain_after_commit()


_buffered = threading.local()


@contextmanager
def notifications_buffered() -> Iterator[list[OutboxMessage]]:
    """Collect the notify() calls of the block and write them in one INSERT at its end.

    For the deadline sweep, which notifies for a whole batch of games. Use it inside the
    transaction; a caller dropping a failed part of its work deletes that part's rows from the
    yielded list. Nothing is written when the block raises.
    """
    messages: list[OutboxMessage] = []
    _buffered.messages = messages
    try:
        yield messages
    finally:
        _buffered.messages = None
    if messages:
        OutboxMessage.objects.bulk_create(messages, ignore_conflicts=True)
        _drain_after_commit()


class _DrainAtCommit:
    """A transaction's one drain publish, registered with its commit hooks.

    Django holds the only strong reference to it, in the transaction's commit hooks, and drops
    it when the transaction, or the savepoint it was registered in, rolls back; at the commit it
    runs. So while this thread's weak reference to it lives and it has not run, the current
    transaction already publishes a drain at its commit.
    """

    def __init__(self) -> None:
        self.ran = False

    def __call__(self) -> None:
        self.ran = True
        _publish_drain()


_drain_registered = threading.local()  # .marker: a weak reference to the last _DrainAtCommit


def _drain_after_commit() -> None:
    """One drain publish per transaction, however many notifications it wrote."""
    marker_ref: weakref.ref[_DrainAtCommit] | None = getattr(_drain_registered, "marker", None)
    pending = marker_ref() if marker_ref is not None else None
    if pending is not None and not pending.ran:
        return
    marker = _DrainAtCommit()
    _drain_registered.marker = weakref.ref(marker)
    transaction.on_commit(marker)


class DrainPublisher:
    """Publishes the drain task after commits, at most once per `interval` in this process.

    Under load a move commits every few milliseconds and each publish costs about half a
    millisecond of CPU. A publish within `interval` of the last one goes out with a countdown to
    the interval's end instead, and commits before then ride on it (a drain takes every pending
    row), so a notification waits at most `interval` longer.
    """

    def __init__(self, *, interval: float, monotonic: Callable[[], float] = time.monotonic):
        self.interval = interval
        self.monotonic = monotonic
        self._lock = threading.Lock()
        self._last_due = -math.inf  # when the last published drain runs

    def __call__(self) -> None:
        from notifications.tasks import drain_outbox

        with self._lock:
            now = self.monotonic()
            if now < self._last_due:
                return  # a drain already queued runs after this commit
            countdown = max(0.0, self._last_due + self.interval - now)
            self._last_due = now + countdown
        publish(drain_outbox, countdown=countdown)


_publish_drain = DrainPublisher(interval=DRAIN_PUBLISH_INTERVAL)


def drain_outbox(*, budget_seconds: float = DRAIN_BUDGET_SECONDS) -> int:
    """Deliver pending notifications, then send their pushes and emails; returns how many
    pushes and emails went out.

    Rows are claimed with SKIP LOCKED, so concurrent drains share the work. Delivery in the app
    is a database write, done a batch per transaction. Each email is sent and marked in its own
    transaction: a worker killed before that commit leaves it for the next drain, and a committed
    one is never sent again. Pushes go first (a player waits for "your turn"), within half the
    budget, so a slow push service cannot starve the emails.
    """
    started = time.monotonic()
    while _deliver_in_app(batch_size=OUTBOX_BATCH):
        pass
    pushed = _send_pushes(budget_seconds=budget_seconds / 2)
    return pushed + _send_emails(budget_seconds=budget_seconds - (time.monotonic() - started))


@functools.cache
def _players_at_table() -> Callable[..., set[tuple[int, int]]]:
    """The app that seats players tells which of them are at the table (they get no your-turn
    notification and no push): settings.NOTIFICATIONS_PLAYERS_AT_TABLE, called with `pairs` of
    (game id, user id) and returning those at the table."""
    return import_string(settings.NOTIFICATIONS_PLAYERS_AT_TABLE)


def _deliver_in_app(*, batch_size: int) -> int:
    """One batch of pending rows: in-app notifications written, the email decided, the pushes
    to each of the user's devices queued."""
    with transaction.atomic(durable=True):
        batch = list(
            OutboxMessage.objects.filter(status=OutboxMessage.Status.PENDING)
            .select_related("user")
            .select_for_update(skip_locked=True, of=("self",))
            .order_by("id")[:batch_size]
        )
        if not batch:
            return 0
        user_ids = {message.user_id for message in batch}
        preferences = {user_id: settings_for_user_id(user_id=user_id) for user_id in user_ids}
        at_table = _players_at_table()(
            pairs={
                (message.game_id, message.user_id)
                for message in batch
                if message.game_id is not None
            }
        )
        devices: dict[int, list[int]] = defaultdict(list)
        for subscription_id, user_id in PushSubscription.objects.filter(
            user_id__in=user_ids
        ).values_list("pk", "user_id"):
            devices[user_id].append(subscription_id)
        shown: list[Notification] = []
        pushes: list[PushDelivery] = []
        decided: dict[str, list[int]] = defaultdict(list)
        for message in batch:
            wanted = preferences[message.user_id]
            looking = (message.game_id, message.user_id) in at_table
            if message.kind in SPARED_AT_TABLE and looking:
                decided[OutboxMessage.Status.SKIPPED].append(message.pk)
                continue
            if wanted["in_app"][message.kind]:
                shown.append(
                    Notification(
                        user_id=message.user_id,
                        kind=message.kind,
                        game_id=message.game_id,
                        payload=message.payload,
                        key=message.key,
                        created_at=message.created_at,
                    )
                )
            if wanted["push"][message.kind] and not looking:
                pushes.extend(
                    PushDelivery(message=message, subscription_id=subscription_id)
                    for subscription_id in devices[message.user_id]
                )
            if not wanted["email"][message.kind] or not message.user.email:
                decided[OutboxMessage.Status.SKIPPED].append(message.pk)
            elif wanted["digest"]:
                decided[OutboxMessage.Status.HELD].append(message.pk)
            else:
                decided[OutboxMessage.Status.EMAIL].append(message.pk)
        Notification.objects.bulk_create(shown, ignore_conflicts=True)
        PushDelivery.objects.bulk_create(pushes, ignore_conflicts=True)
        for status, ids in decided.items():
            OutboxMessage.objects.filter(pk__in=ids).update(
                status=status, processed_at=clock.now_expression()
            )
    return len(batch)


def _send_pushes(*, budget_seconds: float) -> int:
    """Send due pushes, a batch at a time: claimed in a short transaction, sent outside any
    (concurrently, each within webpush.PUSH_DEADLINE_SECONDS), each outcome then recorded.

    A device the push service answers 404/410 for is gone: its subscription is deleted (and its
    queued deliveries with it). A failure (unreachable, slow, 429, 5xx) backs off that device and
    that delivery, which is given up after MAX_SEND_ATTEMPTS; a push that can never be sent is
    set aside at once with its reason. Nothing one device does holds up another's push.
    """
    sent = 0
    started = time.monotonic()
    with webpush.Sender() as sender:
        while time.monotonic() - started < budget_seconds:
            claimed = _claim_pushes(limit=PUSH_BATCH)
            if not claimed:
                break
            pushes = {delivery.pk: _push_of(delivery) for delivery in claimed}
            to_send = [push for push in pushes.values() if isinstance(push, webpush.Push)]
            sent_outcomes = iter(sender.send_all(to_send))
            sent += _record_pushes(
                [
                    (delivery, next(sent_outcomes) if isinstance(push, webpush.Push) else push)
                    for delivery, push in zip(claimed, pushes.values(), strict=True)
                ]
            )
    return sent


def _claim_pushes(*, limit: int) -> list[PushDelivery]:
    """Due deliveries, the first of each device not backing off, claimed for PUSH_LEASE: their
    `next_attempt_at` and their device's `retry_at` move on, so no other sender takes them, nor
    another push to the same device, until this one is recorded or the lease ends."""
    now = clock.now_expression()
    with transaction.atomic(durable=True):
        first_of_each_device = (
            PushDelivery.objects.filter(
                status=PushDelivery.Status.PENDING, next_attempt_at__lte=now
            )
            .values("subscription_id")
            .annotate(first=Min("pk"))
            .values("first")
        )
        claimed = list(
            PushDelivery.objects.filter(pk__in=Subquery(first_of_each_device))
            .filter(Q(subscription__retry_at__isnull=True) | Q(subscription__retry_at__lte=now))
            .select_related("subscription", "message__user")
            .select_for_update(skip_locked=True, of=("self",))
            .order_by("next_attempt_at", "id")[:limit]
        )
        if claimed:
            lease_end = now + PUSH_LEASE
            PushDelivery.objects.filter(pk__in=[delivery.pk for delivery in claimed]).update(
                next_attempt_at=lease_end, attempts=F("attempts") + 1
            )
            PushSubscription.objects.filter(
                pk__in={delivery.subscription_id for delivery in claimed}
            ).update(retry_at=lease_end)
    return claimed


def _push_of(delivery: PushDelivery) -> webpush.Push | webpush.Outcome:
    """The push to send, or, should even its text fail, the outcome: set aside."""
    message, device = delivery.message, delivery.subscription
    try:
        payload = texts.push_payload(
            kind=message.kind,
            game_id=message.game_id,
            payload=message.payload,
            language=message.user.language,
            tag=message.key,
        )
    except Exception as error:
        logger.exception("Push of outbox message %s cannot be written", message.pk)
        return webpush.Outcome(webpush.PushResult.REFUSED, webpush.reason_of(error))
    return webpush.Push(
        endpoint=device.endpoint,
        p256dh=device.p256dh,
        auth=device.auth,
        payload=payload,
        topic=f"n{message.pk}",
    )


def _record_pushes(outcomes: list[tuple[PushDelivery, webpush.Outcome]]) -> int:
    """Write each claimed delivery's outcome (and its device's backoff); returns how many were
    sent. The sent ones, the usual case, in two statements however many."""
    now = clock.now_expression()
    sent = [delivery for delivery, outcome in outcomes if outcome.result is webpush.PushResult.SENT]
    with transaction.atomic(durable=True):
        PushDelivery.objects.filter(pk__in=[delivery.pk for delivery in sent]).update(
            status=PushDelivery.Status.SENT, processed_at=now, failure_reason=""
        )
        PushSubscription.objects.filter(
            pk__in={delivery.subscription_id for delivery in sent}
        ).update(failures=0, retry_at=None)
        for delivery, outcome in outcomes:
            device = delivery.subscription
            if outcome.result is webpush.PushResult.GONE:
                PushSubscription.objects.filter(pk=device.pk).delete()
            elif outcome.result is webpush.PushResult.FAILED:
                attempts = delivery.attempts + 1  # the claim counted this attempt
                gives_up = attempts >= MAX_SEND_ATTEMPTS
                PushDelivery.objects.filter(pk=delivery.pk).update(
                    status=PushDelivery.Status.FAILED if gives_up else PushDelivery.Status.PENDING,
                    next_attempt_at=now + push_backoff(attempts),
                    processed_at=now if gives_up else None,
                    failure_reason=outcome.reason,
                )
                PushSubscription.objects.filter(pk=device.pk).update(
                    failures=F("failures") + 1, retry_at=now + push_backoff(device.failures + 1)
                )
            elif outcome.result is webpush.PushResult.REFUSED:
                PushDelivery.objects.filter(pk=delivery.pk).update(
                    status=PushDelivery.Status.FAILED,
                    processed_at=now,
                    failure_reason=outcome.reason,
                )
                # Set aside for a reason of its own: the device is free again.
                PushSubscription.objects.filter(pk=device.pk).update(retry_at=None)
    return len(sent)


def push_backoff(failures: int) -> timedelta:
    """How long a device (or a delivery) rests after its `failures`-th failure in a row:
    PUSH_BACKOFF_FIRST, doubling, at most PUSH_BACKOFF_MAX."""
    return min(PUSH_BACKOFF_FIRST * 2 ** max(failures - 1, 0), PUSH_BACKOFF_MAX)


def _send_emails(*, budget_seconds: float) -> int:
    sent = 0
    failed: list[int] = []
    mail = get_connection()
    started = time.monotonic()
    while time.monotonic() - started < budget_seconds:
        with transaction.atomic(durable=True):
            message = (
                OutboxMessage.objects.filter(status=OutboxMessage.Status.EMAIL)
                .exclude(pk__in=failed)
                .select_related("user")
                .select_for_update(skip_locked=True, of=("self",))
                .order_by("id")
                .first()
            )
            if message is None:
                break
            status = _send(message, mail=mail)
            if status is None:
                failed.append(message.pk)
                continue
            OutboxMessage.objects.filter(pk=message.pk).update(
                status=status, processed_at=clock.now_expression()
            )
            sent += status == OutboxMessage.Status.SENT
    return sent


def _send(message: OutboxMessage, *, mail: Any) -> OutboxMessage.Status | None:
    """Send one email (unless rate-limited); None when sending failed and will be retried."""
    if _your_turn_email_sent_recently(message):
        return OutboxMessage.Status.SKIPPED
    try:
        _email(message, mail=mail)
    except OSError:
        logger.exception("Sending outbox message %s failed", message.pk)
        OutboxMessage.objects.filter(pk=message.pk).update(attempts=F("attempts") + 1)
        if message.attempts + 1 < MAX_SEND_ATTEMPTS:
            return None
        return OutboxMessage.Status.FAILED
    return OutboxMessage.Status.SENT


def _your_turn_email_sent_recently(message: OutboxMessage) -> bool:
    """At most one your-turn email per game per hour.

    On PostgreSQL a transaction-level advisory lock per (user, game) makes a concurrent drain
    about to email the same player on the same game wait for this transaction, then see its
    send. (The embedded SQLite runs one write transaction at a time anyway.) No row lock: a move
    must not wait for a mail server.
    """
    if message.kind != Kind.YOUR_TURN or message.game_id is None:
        return False
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                [f"your_turn_email:{message.user_id}:{message.game_id}"],
            )
    an_hour_ago = clock.now_expression() - YOUR_TURN_EMAIL_INTERVAL
    return OutboxMessage.objects.filter(
        user_id=message.user_id,
        game_id=message.game_id,
        kind=Kind.YOUR_TURN,
        status=OutboxMessage.Status.SENT,
        processed_at__gt=an_hour_ago,
    ).exists()


def _email(message: OutboxMessage, *, mail: Any) -> None:
    language = message.user.language
    EmailMessage(
        subject=texts.title(kind=message.kind, game_id=message.game_id, language=language),
        body=texts.body(
            kind=message.kind,
            game_id=message.game_id,
            payload=message.payload,
            language=language,
        ),
        to=[message.user.email],
        # Lets mail servers drop a copy should a crash before commit make us send it again.
        headers={"Message-ID": f"<outbox-{message.pk}@canasta.club>"},
        connection=mail,
    ).send()


def send_daily_digests() -> int:
    """One email per digest user listing the emails held since their last digest."""
    today = clock.now().date()
    users_with_held = (
        OutboxMessage.objects.filter(status=OutboxMessage.Status.HELD)
        .values_list("user_id", flat=True)
        .distinct()
    )
    sent = 0
    for user_id in list(users_with_held):
        sent += _send_digest(user_id=user_id, day=today)
    return sent


def _send_digest(*, user_id: int, day: Any) -> int:
    # Not durable: a caller's transaction may hold the whole run, its emails sent at its commit.
    with transaction.atomic():
        held = list(
            OutboxMessage.objects.filter(user_id=user_id, status=OutboxMessage.Status.HELD)
            .select_related("user")
            .select_for_update(skip_locked=True, of=("self",))
            .order_by("id")
        )
        if not held or DigestRun.objects.filter(user_id=user_id, day=day).exists():
            return 0
        user = held[0].user
        language = texts.pick_language(user.language)
        lines = [
            texts.title(kind=message.kind, game_id=message.game_id, language=language)
            for message in held
        ]
        DigestRun.objects.create(user_id=user_id, day=day, items=len(held))
        OutboxMessage.objects.filter(pk__in=[message.pk for message in held]).update(
            status=OutboxMessage.Status.DIGESTED, processed_at=clock.now()
        )
        digest = EmailMessage(
            subject=texts.in_language(language, *texts.DIGEST_SUBJECT).format(count=len(held)),
            body="\n".join(f"• {line}" for line in lines),
            to=[user.email],
        )
        # Sent once the day's run is recorded, never for a run rolled back; a mail server
        # failing then is logged, and the other users' digests still go.
        transaction.on_commit(digest.send, robust=True)
    return 1


def update_settings(*, user: Any, changes: dict[str, Any]) -> dict[str, Any]:
    """Apply a partial change, as NotificationSettingsPatchSerializer validated it:
    {"in_app"|"email"|"push": {kind: bool}, "digest": bool}."""
    with transaction.atomic(durable=True):
        stored, _ = NotificationSettings.objects.select_for_update(of=("self",)).get_or_create(
            user=user
        )
        for channel in ("in_app", "email", "push"):
            getattr(stored, channel).update(changes.get(channel, {}))
        if "digest" in changes:
            stored.digest = changes["digest"]
        stored.save()
    return settings_for_user_id(user_id=user.pk)


def mark_read(*, user: Any, ids: list[int] | None = None, everything: bool = False) -> int:
    """Mark the user's notifications read (the given ids, or all); returns how many changed."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if not everything:
        unread = unread.filter(pk__in=ids or [])
    return unread.update(read_at=clock.now())


def subscribe_push(*, user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Store this device's subscription; a device that re-subscribes (or whose browser now
    belongs to another signed-in user) replaces its old keys and owner and counts as new. The
    endpoint must be a public https push service (Invalid `push_endpoint_refused`); beyond
    MAX_PUSH_DEVICES the user's oldest devices go."""
    try:
        push_endpoints.check(endpoint)
    except push_endpoints.EndpointRefused as refused:
        raise Invalid(
            "push_endpoint_refused",
            text(
                f"Сюда уведомления не отправляются: {refused.reason}.",
                f"Pushes are not sent there: {refused.reason}.",
            ),
        ) from refused
    with transaction.atomic(durable=True):
        # One subscribe at a time per user, so the cap holds.
        type(user).objects.select_for_update(of=("self",)).filter(pk=user.pk).first()
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={
                "user": user,
                "p256dh": p256dh,
                "auth": auth,
                "created_at": clock.now_expression(),
                "failures": 0,
                "retry_at": None,
            },
        )
        kept = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
        PushSubscription.objects.filter(
            pk__in=list(kept.values_list("pk", flat=True)[MAX_PUSH_DEVICES:])
        ).delete()
    return subscription


def unsubscribe_push(*, user: Any, endpoint: str) -> int:
    """Forget this device (the user switched push off in this browser); returns how many."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted
