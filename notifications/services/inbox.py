"""What a user does with their notifications: their settings and the read marks."""

from typing import Any

from django.db import transaction

from club import clock
from notifications.models import Notification, NotificationSettings
from notifications.selectors import settings_for_user_id


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
