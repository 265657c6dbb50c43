"""notify(): a notification recorded in the caller's transaction as one outbox row (or, for a
batch, buffered and written in one INSERT), and a drain published at the commit."""

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from notifications.models import Kind, OutboxMessage
from notifications.services.publisher import drain_after_commit

# An email or a push that failed this many times (e.g. a rejected address) is given up, not
# retried forever.
MAX_SEND_ATTEMPTS = 5


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
    drain_after_commit()


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
        drain_after_commit()
