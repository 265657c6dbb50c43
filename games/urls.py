from django.urls import path, register_converter

from games import views


class GameIdConverter:
    """Ids that fit a bigint: a longer number is a 404, never a database error."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(GameIdConverter, "game_id")

app_name = "games"

urlpatterns = [
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<game_id:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<game_id:game_id>/join/", views.JoinView.as_view(), name="game-join"),
    path("games/<game_id:game_id>/leave/", views.LeaveView.as_view(), name="game-leave"),
    path("games/<game_id:game_id>/bots/", views.SeatBotView.as_view(), name="game-bots"),
    path("games/<game_id:game_id>/moves/", views.MovesView.as_view(), name="game-moves"),
    path("games/<game_id:game_id>/export/", views.ExportView.as_view(), name="game-export"),
    path("games/<game_id:game_id>/pause/", views.PauseView.as_view(), name="game-pause"),
    path(
        "games/<game_id:game_id>/pause/accept/",
        views.PauseAcceptView.as_view(),
        name="game-pause-accept",
    ),
    path(
        "games/<game_id:game_id>/pause/resume/",
        views.PauseResumeView.as_view(),
        name="game-pause-resume",
    ),
    path(
        "games/<game_id:game_id>/heartbeat/", views.HeartbeatView.as_view(), name="game-heartbeat"
    ),
    path(
        "games/<game_id:game_id>/invitations/",
        views.InvitePlayersView.as_view(),
        name="game-invitations",
    ),
    path("games/<game_id:game_id>/rematch/", views.RematchView.as_view(), name="game-rematch"),
    path("games/<game_id:game_id>/phrases/", views.SayPhraseView.as_view(), name="game-phrases"),
    path("phrases/", views.PhrasesView.as_view(), name="phrases"),
    path("me/invitations/", views.MyInvitationsView.as_view(), name="my-invitations"),
    path(
        "invitations/<game_id:invitation_id>/",
        views.InvitationDetailView.as_view(),
        name="invitation",
    ),
    path(
        "invitations/<game_id:invitation_id>/accept/",
        views.InvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<game_id:invitation_id>/decline/",
        views.InvitationDeclineView.as_view(),
        name="invitation-decline",
    ),
    path("games/<game_id:game_id>/continue/", views.ContinueView.as_view(), name="game-continue"),
]
