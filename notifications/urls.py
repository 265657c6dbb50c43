from django.urls import path

import games.urls  # noqa: F401  (registers the game_id path converter: bigint ids only)
from notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.NotificationsView.as_view(), name="notifications"),
    path("notifications/read/", views.MarkReadView.as_view(), name="notifications-read"),
    path(
        "me/notification-settings/",
        views.NotificationSettingsView.as_view(),
        name="notification-settings",
    ),
    # Presence lives here with the your-turn rule it feeds ("not for a player at the table").
    path(
        "games/<game_id:game_id>/heartbeat/", views.HeartbeatView.as_view(), name="game-heartbeat"
    ),
]
