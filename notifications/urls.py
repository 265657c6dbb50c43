from django.urls import path

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
    path(
        "me/push-subscriptions/", views.PushSubscriptionsView.as_view(), name="push-subscriptions"
    ),
    path("push/key/", views.PushKeyView.as_view(), name="push-key"),
]
