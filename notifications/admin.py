from django.contrib import admin

from canasta_club.admin import ClubModelAdmin
from notifications.models import (
    DigestRun,
    Notification,
    NotificationSettings,
    OutboxMessage,
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
