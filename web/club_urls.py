"""The pages around the table, in the web namespace (web.urls adds them)."""

from django.urls import path
from django.views.generic import RedirectView

from web import club_views

urlpatterns = [
    path("rules/", club_views.rules, name="rules"),
    path("help/", RedirectView.as_view(pattern_name="web:rules"), name="help"),
    path("users/<int:user_id>/", club_views.player_card, name="player"),
    path("users/<int:user_id>/report/", club_views.report_player, name="report"),
    path("reports/mine/", club_views.my_reports, name="my-reports"),
    path("games/<game_id:game_id>/afterwords/", club_views.write_afterword, name="afterword"),
    path("games/<game_id:game_id>/replay/", club_views.replay, name="replay"),
    path("notifications/", club_views.notifications, name="notifications"),
    path("notifications/unread/", club_views.unread_count, name="unread-count"),
    path("notifications/settings/", club_views.notification_settings, name="notification-settings"),
    path("sw.js", club_views.service_worker, name="service-worker"),
    path("moderation/", club_views.moderation_queue, name="moderation"),
    path(
        "moderation/reports/<int:report_id>/",
        club_views.moderation_report,
        name="moderation-report",
    ),
]
