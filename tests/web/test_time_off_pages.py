"""Correspondence time off on the pages (issue 21): the profile's vacation and days off, who is
on vacation on the table, the lobby rows and the player card, the table's pause."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from club import clock
from games.models import Game
from games.services import timeouts
from tests.factories import UserFactory, started_game
from tests.timing.conftest import deadline_of, turn_of, user_at

pytestmark = pytest.mark.django_db

MOSCOW = ZoneInfo("Europe/Moscow")


def client_of(user: User, language: str = "ru") -> Client:
    client = Client(headers={"Accept-Language": language})
    client.force_login(user)
    client.cookies["django_language"] = language
    User.objects.filter(pk=user.pk).update(language=language)
    return client


def set_clock(moment: datetime) -> None:
    clock.advance(moment - clock.now())


def test_the_profile_starts_and_ends_a_vacation_and_sets_days_off():
    player = UserFactory.create()
    client = client_of(player)
    page = client.get("/profile/").content.decode()
    assert "data-time-off" in page
    assert f"data-days-left>{settings.CORRESPONDENCE_VACATION_DAYS}<" in page

    started = client.post("/profile/vacation/", {"days": "3"})
    assert started.status_code == 302
    page = client.get("/profile/").content.decode()
    assert "Вы в отпуске до" in page
    assert f"data-days-left>{settings.CORRESPONDENCE_VACATION_DAYS - 3}<" in page
    assert "Закончить отпуск" in page

    assert client.post("/profile/vacation/end/").status_code == 302
    player.refresh_from_db()
    assert player.vacation_until is None

    saved = client.post(
        "/profile/time-off/",
        {"weekend_days": ["5", "6"], "time_zone": "America/New_York"},
    )
    assert saved.status_code == 302
    player.refresh_from_db()
    assert (player.weekend_days, player.time_zone, player.auto_vacation) == (
        [5, 6],
        "America/New_York",
        False,
    )


def test_the_profile_shows_a_refusal():
    client = client_of(UserFactory.create())
    days = 2 * settings.CORRESPONDENCE_VACATION_DAYS + 1  # more than two years have
    page = client.post("/profile/vacation/", {"days": str(days)}, follow=True)
    assert 'role="alert"' in page.content.decode()
    bad = client.post("/profile/time-off/", {"time_zone": "Mars/Olympus"}, follow=True)
    assert "Неизвестный часовой пояс" in bad.content.decode()


def test_the_profile_books_next_years_vacation_and_shows_both_years_days():
    allowance = settings.CORRESPONDENCE_VACATION_DAYS
    year = clock.now().year
    set_clock(datetime(year, 12, 28, 12, tzinfo=MOSCOW))
    client = client_of(UserFactory.create(time_zone="Europe/Moscow"), "en")
    assert "data-days-left-next-year" not in client.get("/profile/").content.decode()

    # From 30 December, Moscow midnight (21:00 UTC on the 29th): 51 hours this year (UTC), 189
    # the next.
    booked = client.post("/profile/vacation/", {"days": "10", "start": f"{year}-12-30"})

    assert booked.status_code == 302
    page = client.get("/profile/").content.decode()
    assert f"data-days-left>{allowance - 51 / 24:.2f}<" in page
    assert f"data-days-left-next-year>{allowance - 189 / 24:.2f}<" in page
    assert client.post("/profile/vacation/end/").status_code == 302  # cancelled: all back
    refused = client.post(
        "/profile/vacation/", {"days": "3", "start": f"{year + 1}-12-27"}, follow=True
    ).content.decode()
    assert "A vacation may be booked at most a year ahead" in refused


@pytest.mark.parametrize(
    ("language", "phrase"),
    [("ru", "Анна в отпуске до <time"), ("en", "Anna is on vacation until <time")],
)
def test_the_table_the_lobby_and_the_card_say_who_is_on_vacation(language, phrase):
    set_clock(datetime(2026, 12, 5, 12, tzinfo=MOSCOW))
    anna = UserFactory.create(display_name="Анна" if language == "ru" else "Anna")
    players = [anna, *UserFactory.create_batch(3)]
    game = started_game(players=players)
    client_of(anna).post("/profile/vacation/", {"days": "7"})
    day = "12 дек." if language == "ru" else "12 Dec"
    viewer = client_of(players[1], language)

    for path in (f"/games/{game.pk}/", "/", f"/users/{anna.pk}/"):
        html = viewer.get(path).content.decode()
        assert phrase in html, path
        assert f">{day}</time>" in html, path


def test_the_table_asks_accepts_and_resumes_a_pause():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    table = f"/games/{game.pk}/"
    assert "Попросить паузу" in client_of(players[0]).get(table).content.decode()

    assert client_of(players[0]).post(f"{table}pause/", {"days": "2"}).status_code == 302
    page = client_of(players[1]).get(table).content.decode()
    assert "Предложена пауза на 2" in page and "Согласиться на паузу" in page
    for player in players[1:]:
        assert client_of(player).post(f"{table}pause/accept/").status_code == 302
    page = client_of(players[2]).get(table).content.decode()
    assert "Пауза до" in page and "Продолжить игру" in page
    game.refresh_from_db()
    assert game.paused_until is not None

    for player in players:
        client_of(player).post(f"{table}pause/resume/")
    game.refresh_from_db()
    assert game.paused_until is not None and game.paused_until <= clock.now()
    assert "Попросить паузу" in client_of(players[0]).get(table).content.decode()


def test_a_refused_pause_is_shown_on_the_table():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    refused = client_of(players[0]).post(f"/games/{game.pk}/pause/accept/")
    assert refused.status_code == 409
    assert "Паузу никто не предлагал" in refused.content.decode()
    too_long = client_of(players[0]).post(f"/games/{game.pk}/pause/", {"days": "99"})
    assert too_long.status_code == 400


def test_a_vacation_from_the_profile_keeps_the_turn_from_timing_out():
    game = started_game()
    player = user_at(game, turn_of(game))
    client_of(player).post("/profile/vacation/", {"days": "2"})
    game.refresh_from_db()
    assert deadline_of(game) > clock.now() + timedelta(days=2)
    clock.advance(timedelta(days=2))
    assert timeouts.sweep() == 0
    assert Game.objects.get(pk=game.pk).version == game.version


def turn_clock(html: str) -> str:
    """The dock's turn clock element, from its tag to its end."""
    start = html.index("<span data-turn-clock")
    return html[start : html.index("</span>", start) + len("</span>")]


@pytest.mark.parametrize(
    ("language", "paused"),
    [("ru", "Пауза до <time"), ("en", "Paused until <time")],
)
def test_a_paused_games_clock_says_until_when_and_does_not_count_down(language, paused):
    set_clock(datetime(2026, 12, 5, 18, tzinfo=MOSCOW))
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    table = f"/games/{game.pk}/"
    running = turn_clock(client_of(players[0], language).get(table).content.decode())
    assert "data-deadline=" in running and "data-clock-stopped" not in running

    client_of(players[0]).post(f"{table}pause/", {"days": "7"})
    for player in players[1:]:
        client_of(player).post(f"{table}pause/accept/")

    for path in (table, f"{table}table/"):
        clock_html = turn_clock(client_of(players[1], language).get(path).content.decode())
        assert 'data-clock-stopped="pause"' in clock_html, path
        assert "data-deadline" not in clock_html, path  # table.js has nothing to tick
        when = "12 дек., 18:00" if language == "ru" else "12 Dec, 18:00"
        assert paused in clock_html and f">{when}</time>" in clock_html, path

    clock.advance(timedelta(days=7, minutes=1))  # the pause is over: the clock runs again
    running = turn_clock(client_of(players[1], language).get(table).content.decode())
    assert "data-deadline=" in running and "data-clock-stopped" not in running


@pytest.mark.parametrize(
    ("language", "note", "stopped"),
    [
        ("ru", "в отпуске до <time", "часы стоят: отпуск до <time"),
        ("en", "is on vacation until <time", "clock stopped: on vacation until <time"),
    ],
)
def test_the_clock_of_a_player_to_move_on_vacation_is_stopped(language, note, stopped):
    set_clock(datetime(2026, 12, 5, 12, tzinfo=MOSCOW))
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    away = user_at(game, turn_of(game))
    client_of(away).post("/profile/vacation/", {"days": "7"})
    viewer = next(player for player in players if player.pk != away.pk)

    html = client_of(viewer, language).get(f"/games/{game.pk}/").content.decode()
    clock_html = turn_clock(html)
    assert 'data-clock-stopped="vacation"' in clock_html and "data-deadline" not in clock_html
    when = "12 дек., 12:00" if language == "ru" else "12 Dec, 12:00"
    assert stopped in clock_html and f">{when}</time>" in clock_html
    assert note in html and 'data-away-reason="vacation"' in html


@pytest.mark.parametrize(
    ("language", "note", "stopped", "day"),
    [
        ("ru", "на выходном до <time", "часы стоят: выходной до <time", "14 дек."),
        ("en", "has a day off until <time", "clock stopped: day off until <time", "14 Dec"),
    ],
)
def test_a_day_off_is_called_a_day_off_not_a_vacation(language, note, stopped, day):
    set_clock(datetime(2026, 12, 12, 12, tzinfo=MOSCOW))  # a Saturday
    players = UserFactory.create_batch(4, weekend_days=[5, 6], time_zone="Europe/Moscow")
    game = started_game(players=players)
    away = user_at(game, turn_of(game))
    viewer = client_of(next(player for player in players if player.pk != away.pk), language)

    table = viewer.get(f"/games/{game.pk}/").content.decode()
    clock_html = turn_clock(table)
    assert 'data-clock-stopped="day_off"' in clock_html and "data-deadline" not in clock_html
    assert stopped in clock_html and f">{day}, 00:00</time>" in clock_html
    for path in (f"/games/{game.pk}/", "/", f"/users/{away.pk}/"):
        html = viewer.get(path).content.decode()
        assert note in html and f">{day}</time>" in html, path
        assert "в отпуске" not in html and "on vacation" not in html, path
