"""Web push: the devices' subscriptions, and the deliveries claimed, sent and recorded with
their backoff."""

import logging
import time
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Min, Q, Subquery

from club import clock
from club.errors import Invalid
from club.i18n import text
from notifications import push_endpoints, texts, webpush
from notifications.models import PushDelivery, PushSubscription
from notifications.services.outbox import MAX_SEND_ATTEMPTS

logger = logging.getLogger(__name__)

# Web push: deliveries claimed at a time (sent webpush.PUSH_SENDERS at once); a claim holds them
# (and their devices) this long, well past a push's deadline, should the sender die meanwhile.
PUSH_BATCH = 64
PUSH_LEASE = timedelta(minutes=2)
# A failing device or delivery rests 10 s, 20 s, 40 s ... at most an hour before the next try.
PUSH_BACKOFF_FIRST = timedelta(seconds=10)
PUSH_BACKOFF_MAX = timedelta(hours=1)
# A user's devices taking web pushes; subscribing one more drops the oldest.
MAX_PUSH_DEVICES = 10


def send_pushes(*, budget_seconds: float) -> int:
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
