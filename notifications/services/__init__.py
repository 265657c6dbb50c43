"""Writes, the one way to call them: notify, drain the outbox, daily digests, settings, read
marks, web push subscriptions. One module per concern: the outbox (`outbox`: notify), the
drain's publish (`publisher`), the drain (`drain`), web push (`push`), emails (`emails`), the
daily digest (`digests`) and the user's own side (`inbox`).

A leaf app: it knows users, and of games only their ids (the games app calls notify()).

notify() writes inside its caller's transaction; every other entry point, and each unit of a
drain (a batch delivered, pushes claimed or recorded, an email sent), runs its own
durable transaction, so none can be called inside another's and half-commit with it.
"""

from notifications.services.digests import send_daily_digests
from notifications.services.drain import drain_outbox
from notifications.services.inbox import mark_read, update_settings
from notifications.services.outbox import notifications_buffered, notify
from notifications.services.push import subscribe_push, unsubscribe_push

__all__ = [
    "drain_outbox",
    "mark_read",
    "notifications_buffered",
    "notify",
    "send_daily_digests",
    "subscribe_push",
    "unsubscribe_push",
    "update_settings",
]
