from django.contrib import admin

from club.admin import ClubModelAdmin
from notifications.models import (
    DigestRun,
    Notification,
    NotificationSettings,
    OutboxMessage,
    PushDelivery,
    PushSubscription,
)


@admin.register(Notification)
class NotificationAdmin(ClubModelAdmin):
    list_display = ["id", "user", "kind", "game", "created_at", "read_at"]
    list_filter = ["kind"]
    raw_id_fields = ["user", "game"]
    search_fields = ["user__username"]


@admin.register(OutboxMessage)
class OutboxMessageAdmin(ClubModelAdmin):
    list_display = [
        "id",
        "user",
        "kind",
        "game",
        "status",
        "attempts",
        "created_at",
        "processed_at",
    ]
    list_filter = ["status", "kind"]
    raw_id_fields = ["user", "game"]
    search_fields = ["user__username", "key"]


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(ClubModelAdmin):
    list_display = ["user", "digest"]
    raw_id_fields = ["user"]


@admin.register(DigestRun)
class DigestRunAdmin(ClubModelAdmin):
    list_display = ["user", "day", "items", "sent_at"]
    raw_id_fields = ["user"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ClubModelAdmin):
    list_display = ["id", "user", "created_at", "failures", "retry_at"]
    raw_id_fields = ["user"]
    search_fields = ["user__username"]


@admin.register(PushDelivery)
class PushDeliveryAdmin(ClubModelAdmin):
    """Pushes set aside (`failed`) with their reason, among the others."""

    list_display = [
        "id",
        "message",
        "subscription",
        "status",
        "attempts",
        "next_attempt_at",
        "failure_reason",
    ]
    list_filter = ["status"]
    raw_id_fields = ["message", "subscription"]
