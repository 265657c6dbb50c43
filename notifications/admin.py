from django.contrib import admin

from notifications.models import (
    DigestRun,
    Notification,
    NotificationSettings,
    OutboxMessage,
)


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "kind", "game", "created_at", "read_at"]
    list_filter = ["kind"]
    raw_id_fields = ["user", "game"]
    search_fields = ["user__username"]


@admin.register(OutboxMessage)
class OutboxMessageAdmin(admin.ModelAdmin):
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
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "digest"]
    raw_id_fields = ["user"]


@admin.register(DigestRun)
class DigestRunAdmin(admin.ModelAdmin):
    list_display = ["user", "day", "items", "sent_at"]
    raw_id_fields = ["user"]
