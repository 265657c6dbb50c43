"""The daily digest: one email per digest user listing the emails held since their last one."""

from typing import Any

from django.core.mail import EmailMessage
from django.db import transaction

from club import clock
from notifications import texts
from notifications.models import DigestRun, OutboxMessage


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
