from django.urls import path

import games.urls  # noqa: F401  # registers the game_id converter (ids that fit a bigint)
from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.TournamentsView.as_view(), name="tournaments"),
    path(
        "tournaments/<game_id:tournament_id>/",
        views.TournamentDetailView.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<game_id:tournament_id>/join/",
        views.JoinTournamentView.as_view(),
        name="tournament-join",
    ),
    path(
        "tournaments/<game_id:tournament_id>/start/",
        views.StartTournamentView.as_view(),
        name="tournament-start",
    ),
]
