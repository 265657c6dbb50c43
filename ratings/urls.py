from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("users/<int:pk>/ratings/", views.HistoryView.as_view(), name="user-ratings"),
]
