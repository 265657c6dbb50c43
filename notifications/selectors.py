"""Reads: a user's notification switches and in-app notifications."""

from typing import Any

from django.db.models import QuerySet

from notifications.models import Kind, Notification, NotificationSettings, PushSubscription

# Every kind is on by default, in-app, by email and by push (to the devices that subscribed);
# users switch kinds off one by one.
DEFAULT_IN_APP = dict.fromkeys(Kind.values, True)
DEFAULT_EMAIL = dict.fromkeys(Kind.values, True)
DEFAULT_PUSH = dict.fromkeys(Kind.values, True)


def settings_for_user_id(*, user_id: int) -> dict[str, Any]:
    stored = NotificationSettings.objects.filter(user_id=user_id).first()
    if stored is None:
        return {
            "in_app": dict(DEFAULT_IN_APP),
            "email": dict(DEFAULT_EMAIL),
            "push": dict(DEFAULT_PUSH),
            "digest": False,
        }
    return {
        "in_app": {**DEFAULT_IN_APP, **stored.in_app},
        "email": {**DEFAULT_EMAIL, **stored.email},
        "push": {**DEFAULT_PUSH, **stored.push},
        "digest": stored.digest,
    }


def settings_for(*, user: Any) -> dict[str, Any]:
    """The user's per-kind switches (in-app, email, push) and the daily digest option."""
    return settings_for_user_id(user_id=user.pk)


def notifications_for(*, user: Any, read: bool | None = None) -> QuerySet[Notification]:
    notifications = Notification.objects.filter(user=user)
    if read is not None:
        notifications = notifications.filter(read_at__isnull=not read)
    return notifications.order_by("-id")


def unread(*, user: Any) -> QuerySet[Notification]:
    return Notification.objects.filter(user=user, read_at__isnull=True)


def unread_count(*, user: Any) -> int:
    return unread(user=user).count()


def push_device_count(*, user: Any) -> int:
    return PushSubscription.objects.filter(user=user).count()
