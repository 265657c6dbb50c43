"""The outbox's drain: pending rows delivered in the app, their pushes queued and their emails
decided (sent, held for the digest, or skipped), then the pushes and emails sent."""

import time
from collections import defaultdict

from django.db import transaction

from club import clock
from notifications import at_table
from notifications.models import Kind, Notification, OutboxMessage, PushDelivery, PushSubscription
from notifications.selectors import settings_for_user_id
from notifications.services.emails import send_emails
from notifications.services.push import send_pushes

# What a player looking at the game's table sees there: not notified at all (the games app also
# tells an absent player of turns played for them once per absence, not once per turn).
SPARED_AT_TABLE = (Kind.YOUR_TURN, Kind.PARTNER_ASKS, Kind.AUTOPLAYED)
# A drain sends emails for this long at most (beat starts the next one every 10 s), so a
# backlog keeps a worker busy without tying it up for good.
DRAIN_BUDGET_SECONDS = 8.0
OUTBOX_BATCH = 200


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
    pushed = send_pushes(budget_seconds=budget_seconds / 2)
    return pushed + send_emails(budget_seconds=budget_seconds - (time.monotonic() - started))


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
        at_the_table = at_table.players_at_table(
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
            looking = (message.game_id, message.user_id) in at_the_table
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
