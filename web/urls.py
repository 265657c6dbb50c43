"""Every page's path, in the web namespace; each page's views live in its own package
(web/table/, web/lobby/, ...). Names and paths are CONTRACT.md §4's."""

from django.urls import path
from django.views.generic import RedirectView

import games.urls  # noqa: F401  # registers the game_id converter
from web.account import views as account
from web.lobby import views as lobby
from web.moderation import views as moderation
from web.notifications import views as notifications
from web.people import views as people
from web.players import views as players
from web.ratings import views as ratings
from web.replay import views as replay
from web.rules import views as rules
from web.table import events
from web.table import views as table
from web.tournaments import events as tournament_events
from web.tournaments import views as tournaments

app_name = "web"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("signup/", account.signup, name="signup"),
    path("login/", account.LogInView.as_view(), name="login"),
    path("logout/", account.LogOutView.as_view(), name="logout"),
    path("profile/", account.profile, name="profile"),
    path("profile/vacation/", account.start_vacation, name="vacation"),
    path("profile/vacation/end/", account.end_vacation, name="vacation-end"),
    path("profile/time-off/", account.update_time_off, name="time-off"),
    path("language/", account.set_language, name="language"),
    path("password-reset/", account.password_reset, name="password-reset"),
    path("tables/new/", lobby.open_table, name="open-table"),
    path("play/", lobby.play_with_bots, name="play-with-bots"),
    path("games/<game_id:game_id>/", table.table, name="table"),
    path("games/<game_id:game_id>/table/", table.table_fragment, name="table-fragment"),
    path("games/<game_id:game_id>/move/", table.move, name="move"),
    path("games/<game_id:game_id>/preview/", table.preview, name="preview"),
    path("games/<game_id:game_id>/join/", table.join, name="join"),
    path("games/<game_id:game_id>/leave/", table.leave, name="leave"),
    path("games/<game_id:game_id>/bots/", table.seat_bot, name="seat-bot"),
    path("games/<game_id:game_id>/events/", events.stream, name="events"),
    path("games/<game_id:game_id>/continue/", table.close_deal_summary, name="continue"),
    path("games/<game_id:game_id>/pace/", table.ask_pace, name="pace"),
    path("games/<game_id:game_id>/bots/level/", table.change_bot_level, name="bot-level"),
    path("games/<game_id:game_id>/hand-to-bot/", table.hand_seat_to_bot, name="hand-to-bot"),
    path("games/<game_id:game_id>/rematch/", table.rematch, name="rematch"),
    path("games/<game_id:game_id>/pause/", table.ask_pause, name="pause"),
    path("games/<game_id:game_id>/pause/accept/", table.accept_pause, name="pause-accept"),
    path("games/<game_id:game_id>/pause/resume/", table.resume_pause, name="pause-resume"),
    path("games/<game_id:game_id>/phrases/", table.say_phrase, name="say-phrase"),
    path("games/<game_id:game_id>/phrases/mute/", table.mute_phrases, name="mute-phrases"),
    path(
        "invitations/<game_id:invitation_id>/accept/",
        table.accept_invitation,
        name="invitation-accept",
    ),
    path(
        "invitations/<game_id:invitation_id>/decline/",
        table.decline_invitation,
        name="invitation-decline",
    ),
    path(
        "invitations/<game_id:invitation_id>/withdraw/",
        table.withdraw_invitation,
        name="invitation-withdraw",
    ),
    path("tournaments/", tournaments.tournaments, name="tournaments"),
    path("tournaments/new/", tournaments.open_tournament, name="open-tournament"),
    path("tournaments/<game_id:tournament_id>/", tournaments.tournament, name="tournament"),
    path(
        "tournaments/<game_id:tournament_id>/live/",
        tournaments.tournament_fragment,
        name="tournament-fragment",
    ),
    path(
        "tournaments/<game_id:tournament_id>/events/",
        tournament_events.stream,
        name="tournament-events",
    ),
    path(
        "tournaments/<game_id:tournament_id>/enter/",
        tournaments.enter,
        name="tournament-enter",
    ),
    path(
        "tournaments/<game_id:tournament_id>/leave/",
        tournaments.leave,
        name="tournament-leave",
    ),
    path(
        "tournaments/<game_id:tournament_id>/start/",
        tournaments.start,
        name="tournament-start",
    ),
    path("rules/", rules.rules, name="rules"),
    path("help/", RedirectView.as_view(pattern_name="web:rules"), name="help"),
    path("ratings/", ratings.ratings, name="ratings"),
    path("users/<int:user_id>/", players.player_card, name="player"),
    path("users/<int:user_id>/report/", players.report_player, name="report"),
    path("users/<int:user_id>/follow/", people.follow, name="follow"),
    path("users/<int:user_id>/block/", people.block, name="block"),
    path("following/", people.following, name="following"),
    path("reports/mine/", moderation.my_reports, name="my-reports"),
    path("games/<game_id:game_id>/afterwords/", table.write_afterword, name="afterword"),
    path("games/<game_id:game_id>/replay/", replay.replay, name="replay"),
    path("notifications/", notifications.notifications, name="notifications"),
    path("notifications/unread/", notifications.unread_count, name="unread-count"),
    path(
        "notifications/settings/",
        notifications.notification_settings,
        name="notification-settings",
    ),
    path("sw.js", notifications.service_worker, name="service-worker"),
    path("moderation/", moderation.moderation_queue, name="moderation"),
    path(
        "moderation/reports/<int:report_id>/",
        moderation.moderation_report,
        name="moderation-report",
    ),
]

# The emailed password reset link's pages, under /password-reset/ (canasta_club.urls) and
# outside the namespace: the email reverses "password-reset-page" (accounts.tasks).
reset_link_urlpatterns = [
    path("<uidb64>/<token>/", account.PasswordResetLinkPage.as_view(), name="password-reset-page"),
    path("done/", account.PasswordResetDone.as_view(), name="password-reset-complete"),
]
