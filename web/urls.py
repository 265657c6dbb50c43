from django.urls import path

import games.urls  # noqa: F401  # registers the game_id converter
from web import club_urls, events, time_off_views, views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.LogInView.as_view(), name="login"),
    path("logout/", views.LogOutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", time_off_views.start_vacation, name="vacation"),
    path("profile/vacation/end/", time_off_views.end_vacation, name="vacation-end"),
    path("profile/time-off/", time_off_views.update_time_off, name="time-off"),
    path("language/", views.set_language, name="language"),
    path("password-reset/", views.password_reset, name="password-reset"),
    path("tables/new/", views.open_table, name="open-table"),
    path("games/<game_id:game_id>/", views.table, name="table"),
    path("games/<game_id:game_id>/table/", views.table_fragment, name="table-fragment"),
    path("games/<game_id:game_id>/move/", views.move, name="move"),
    path("games/<game_id:game_id>/preview/", views.preview, name="preview"),
    path("games/<game_id:game_id>/join/", views.join, name="join"),
    path("games/<game_id:game_id>/leave/", views.leave, name="leave"),
    path("games/<game_id:game_id>/bots/", views.seat_bot, name="seat-bot"),
    path("games/<game_id:game_id>/events/", events.stream, name="events"),
    path("games/<game_id:game_id>/pause/", time_off_views.ask_pause, name="pause"),
    path("games/<game_id:game_id>/pause/accept/", time_off_views.accept_pause, name="pause-accept"),
    path("games/<game_id:game_id>/pause/resume/", time_off_views.resume_pause, name="pause-resume"),
]

# Player cards, reports, afterwords, notifications, replays and the moderators' desk.
urlpatterns += club_urls.urlpatterns
