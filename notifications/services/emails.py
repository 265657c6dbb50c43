"""The outbox's emails, each sent and marked in its own transaction; at most one your-turn email
per game an hour."""

import logging
import time
from datetime import timedelta
from typing import Any

from django.core.mail import EmailMessage, get_connection
from django.db import connection, transaction
from django.db.models import F

from club import clock
from notifications import texts
from notifications.models import Kind, OutboxMessage
from notifications.services.outbox import MAX_SEND_ATTEMPTS

logger = logging.getLogger(__name__)

YOUR_TURN_EMAIL_INTERVAL = timedelta(hours=1)


def send_emails(*, budget_seconds: float) -> int:
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
