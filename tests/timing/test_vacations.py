"""Correspondence time off through the API (issue 21, CONTRACT §5): vacations, automatic
vacation hours, days off in the player's zone across DST, on the database clock."""

import importlib
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.apps import apps
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from club import clock
from games.models import Game, Move, Seat
from games.services import timeouts
from notifications.models import Notification
from notifications.services import drain_outbox
from tests.factories import UserFactory, started_game
from tests.timing.conftest import deadline_of, turn_of, user_at

pytestmark = pytest.mark.django_db

DAY = timedelta(hours=24)
HOUR = timedelta(hours=1)
SATURDAY, SUNDAY = 5, 6
NEW_YORK, MOSCOW = ZoneInfo("America/New_York"), ZoneInfo("Europe/Moscow")


def client_of(user: User) -> APIClient:
    """The user's client, with the user as a request would read them now."""
    client = APIClient()
    client.force_authenticate(User.objects.get(pk=user.pk))
    return client


def game_answer(game: Game, user: User) -> dict:
    answer = client_of(user).get(f"/api/games/{game.pk}/")
    assert answer.status_code == 200
    return answer.json()


def parsed(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def player_entry(answer: dict, user: User) -> dict:
    return next(player for player in answer["players"] if player["user"]["id"] == user.pk)


def to_move(game: Game) -> User:
    return user_at(game, turn_of(game))


def started_of(game: Game) -> datetime:
    assert game.turn_started_at is not None
    return game.turn_started_at


def set_clock(moment: datetime) -> None:
    clock.advance(moment - clock.now())


def automatic_moves(game: Game) -> int:
    return Move.objects.filter(game=game, automatic=True).count()


def test_a_new_player_has_the_allowance_and_automatic_vacation_on():
    answer = APIClient().post(
        "/api/auth/register/",
        {"username": "anna", "password": "a-long-passphrase-9", "email": "anna@example.com"},
        format="json",
    )
    assert answer.status_code == 201
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert client.get("/api/me/").json()["vacation"] == {
        "days_left": settings.CORRESPONDENCE_VACATION_DAYS,
        "days_left_next_year": settings.CORRESPONDENCE_VACATION_DAYS,
        "until": None,
        "starts": None,
        "auto": True,
        "weekend_days": [],
        "time_zone": "Europe/Moscow",
    }


def test_a_vacation_started_and_ended_early_restores_the_time_left():
    game = started_game()
    player, started = to_move(game), game.turn_started_at
    assert started is not None
    clock.advance(timedelta(hours=4))

    answer = client_of(player).post("/api/me/vacation/", {"days": 3}, format="json")

    assert answer.status_code == 200
    vacation = answer.json()
    assert vacation["days_left"] == settings.CORRESPONDENCE_VACATION_DAYS - 3
    began = parsed(vacation["starts"])
    assert began is not None and parsed(vacation["until"]) == began + 3 * DAY
    # The 4 hours before it were spent; the rest of the turn runs when the vacation ends.
    game.refresh_from_db()
    assert deadline_of(game) == started + DAY + 3 * DAY
    other = user_at(game, (turn_of(game) + 1) % 4)
    seen = game_answer(game, other)
    assert parsed(player_entry(seen, player)["away_until"]) == began + 3 * DAY
    assert player_entry(seen, player)["away_reason"] == "vacation"
    card = client_of(other).get(f"/api/users/{player.pk}/").json()
    assert parsed(card["away_until"]) == began + 3 * DAY
    assert card["away_reason"] == "vacation"
    assert parsed(seen["turn_deadline"]) == deadline_of(game)

    clock.advance(2 * DAY - timedelta(minutes=5))  # the turn would have timed out long ago
    assert timeouts.sweep() == 0
    assert timeouts.sweep_turn_reminders() == 0

    ended = client_of(player).delete("/api/me/vacation/")

    assert ended.status_code == 200
    assert ended.json()["until"] is None
    # Two days were begun (the hours begun are spent); the third goes back.
    assert ended.json()["days_left"] == settings.CORRESPONDENCE_VACATION_DAYS - 2
    game.refresh_from_db()
    back = clock.now()
    assert back < deadline_of(game) <= back + timedelta(hours=20)
    assert deadline_of(game) - back > timedelta(hours=19, minutes=59)
    back_entry = player_entry(game_answer(game, player), player)
    assert (back_entry["away_until"], back_entry["away_reason"]) == (None, None)
    assert client_of(player).delete("/api/me/vacation/").json()["code"] == "not_on_vacation"


def test_a_booked_vacation_moves_the_deadline_it_falls_before():
    game = started_game()
    player = to_move(game)
    start = clock.now() + timedelta(hours=10)

    answer = client_of(player).post(
        "/api/me/vacation/", {"days": 2, "start": start.isoformat()}, format="json"
    )

    assert answer.status_code == 200
    assert parsed(answer.json()["starts"]) == start
    game.refresh_from_db()
    assert deadline_of(game) == started_of(game) + DAY + 2 * DAY
    # Not away yet: the vacation has not begun.
    assert player_entry(game_answer(game, player), player)["away_until"] is None


@pytest.mark.parametrize(
    ("body", "code"),
    [
        # More than this year and the next have together, whenever the test runs.
        ({"days": 2 * settings.CORRESPONDENCE_VACATION_DAYS + 1}, "vacation_exceeds_allowance"),
        ({"days": 0}, "invalid"),
        ({"days": 2, "start": "2020-01-01T00:00:00Z"}, "invalid"),
        ({"start": "2030-01-01T00:00:00Z"}, "invalid"),
        ({"days": 2, "start": "2099-01-01T00:00:00Z"}, "vacation_too_far_ahead"),
    ],
)
def test_vacations_refused(body, code):
    answer = client_of(UserFactory.create()).post("/api/me/vacation/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == code


def vacation_of(user: User) -> dict:
    return client_of(user).get("/api/me/").json()["vacation"]


def book(user: User, days: int, start: datetime | None = None) -> dict:
    body: dict[str, object] = {"days": days}
    if start is not None:
        body["start"] = start.isoformat()
    return client_of(user).post("/api/me/vacation/", body, format="json").json()


def test_a_vacation_across_31_december_is_charged_to_each_year_it_falls_in():
    """On the database clock (set_clock), each hour to its own year; /api/me/'s days_left is
    this year's, and on 1 January next year's charge is this year's."""
    allowance = settings.CORRESPONDENCE_VACATION_DAYS
    year = clock.now().year
    set_clock(datetime(year, 12, 25, tzinfo=UTC))
    player = UserFactory.create()

    answer = book(player, 10)  # 25 December to 4 January: 7 days this year, 3 the next

    assert (answer["days_left"], answer["days_left_next_year"]) == (allowance - 7, allowance - 3)
    set_clock(datetime(year + 1, 1, 1, 23, 30, tzinfo=UTC))
    assert vacation_of(player)["days_left"] == allowance - 3
    assert vacation_of(player)["days_left_next_year"] == allowance
    # Ended late on 1 January: the two days not begun go back to the new year.
    ended = client_of(player).delete("/api/me/vacation/").json()
    assert ended["days_left"] == allowance - 1


def test_next_years_vacation_is_charged_to_next_year_and_this_years_days_stay():
    """The third audit's case (issue #32): booked on 7 December for next December."""
    allowance = settings.CORRESPONDENCE_VACATION_DAYS
    year = clock.now().year
    set_clock(datetime(year, 12, 7, tzinfo=UTC))
    player = UserFactory.create()

    answer = book(player, allowance, datetime(year + 1, 11, 20, tzinfo=UTC))

    assert (answer["days_left"], answer["days_left_next_year"]) == (allowance, 0)
    assert answer["starts"] == f"{year + 1}-11-20T00:00:00Z"


def test_a_vacation_may_not_exceed_the_allowance_of_either_year_it_falls_in():
    allowance = settings.CORRESPONDENCE_VACATION_DAYS
    year = clock.now().year
    set_clock(datetime(year, 12, 25, tzinfo=UTC))
    player = UserFactory.create()
    User.objects.filter(pk=player.pk).update(
        vacation_year=year, vacation_hours_used=(allowance - 2) * 24
    )
    client = client_of(player)
    english = {"Accept-Language": "en"}

    # Three days this year where two are left.
    this_year = client.post(
        "/api/me/vacation/",
        {"days": 3, "start": f"{year}-12-29T00:00:00Z"},
        format="json",
        headers=english,
    )
    # One day this year and one more than next year's allowance.
    next_year = client.post(
        "/api/me/vacation/",
        {"days": allowance + 2, "start": f"{year}-12-31T00:00:00Z"},
        format="json",
        headers=english,
    )

    assert this_year.status_code == next_year.status_code == 400
    assert this_year.json()["code"] == next_year.json()["code"] == "vacation_exceeds_allowance"
    assert "left this year" in this_year.json()["detail"]
    assert f"left in {year + 1}" in next_year.json()["detail"]
    assert vacation_of(player)["days_left"] == 2
    # Two days this year and the rest in the next fit.
    fits = book(player, allowance + 2, datetime(year, 12, 30, tzinfo=UTC))
    assert (fits["days_left"], fits["days_left_next_year"]) == (0, 0)


def test_a_vacation_must_end_within_a_year():
    year = clock.now().year
    set_clock(datetime(year, 12, 7, tzinfo=UTC))
    client = client_of(UserFactory.create())
    horizon = datetime(year, 12, 7, tzinfo=UTC) + timedelta(days=365)

    # The audit's booking: from 6 December next year, 14 days, ends after the horizon.
    refused = client.post(
        "/api/me/vacation/",
        {"days": 14, "start": (horizon - DAY).isoformat()},
        format="json",
        headers={"Accept-Language": "en"},
    )

    assert refused.status_code == 400
    assert refused.json()["code"] == "vacation_too_far_ahead"
    assert f"{horizon:%Y-%m-%d}" in refused.json()["detail"]
    last_day = client.post(
        "/api/me/vacation/",
        {"days": 1, "start": (horizon - DAY - HOUR).isoformat()},
        format="json",
    )
    assert last_day.status_code == 200


def test_the_upgrade_moves_next_years_hours_of_a_booked_vacation_there():
    """Migration accounts 0011: a vacation booked before across 31 December had all its hours
    charged to this year."""
    year = timezone.now().year  # the migration's clock
    player = UserFactory.create(
        vacation_start=datetime(year, 12, 30, tzinfo=UTC),
        vacation_until=datetime(year + 1, 1, 3, tzinfo=UTC),
        vacation_year=year,
        vacation_hours_used=4 * 24 + 5,  # and 5 automatic hours before
    )
    migration = importlib.import_module("accounts.migrations.0011_vacation_hours_next_year")

    migration.charge_next_years_hours_to_it(apps, None)

    player.refresh_from_db()
    assert (player.vacation_hours_used, player.vacation_hours_next_year) == (2 * 24 + 5, 2 * 24)


def test_a_second_vacation_waits_for_the_first_to_end():
    player = UserFactory.create()
    assert (
        client_of(player).post("/api/me/vacation/", {"days": 2}, format="json").status_code == 200
    )
    again = client_of(player).post("/api/me/vacation/", {"days": 2}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "already_on_vacation"


def test_an_automatic_vacation_hour_covers_two_games_timing_out_in_it_told_once():
    first = started_game()
    player = to_move(first)
    User.objects.filter(pk=player.pk).update(auto_vacation=True)
    clock.advance(timedelta(minutes=30))
    second = started_game()
    Seat.objects.filter(game=second, seat=turn_of(second)).update(user=player)
    first_deadline, second_deadline = deadline_of(first), deadline_of(second)

    clock.advance(DAY - timedelta(minutes=30) + timedelta(seconds=1))  # the first times out
    assert timeouts.sweep() == 1
    first.refresh_from_db()
    # An hour from the deadline (the few seconds' sweep and test run included).
    spent_until = deadline_of(first)
    assert timedelta(0) <= spent_until - (first_deadline + HOUR) < timedelta(seconds=10)
    clock.advance(timedelta(minutes=30))  # the second times out, in the same hour
    assert timeouts.sweep() == 1
    second.refresh_from_db()
    assert deadline_of(second) == second_deadline + (spent_until - first_deadline)

    assert automatic_moves(first) == automatic_moves(second) == 0
    me = client_of(player).get("/api/me/").json()["vacation"]
    assert me["days_left"] == round(settings.CORRESPONDENCE_VACATION_DAYS - 1 / 24, 2)
    assert parsed(me["until"]) == spent_until
    assert Seat.objects.get(game=first, user=player).consecutive_timeouts == 0
    drain_outbox()
    told = Notification.objects.filter(user=player, kind="auto_vacation")
    assert told.count() == 1
    assert told.get().game_id == first.pk


def test_the_allowance_running_out_mid_vacation_times_the_turn_out():
    game = started_game()
    player = to_move(game)
    allowance = settings.CORRESPONDENCE_VACATION_DAYS * 24
    User.objects.filter(pk=player.pk).update(
        auto_vacation=True,
        vacation_year=clock.now().year,
        vacation_hours_used=allowance - 2,
    )
    clock.advance(DAY + timedelta(seconds=1))
    for _hour in range(2):
        assert timeouts.sweep() == 1
        assert automatic_moves(game) == 0
        clock.advance(HOUR)
    assert timeouts.sweep() == 1  # no hour left: the club plays the turn

    assert automatic_moves(game) > 0
    assert Seat.objects.get(game=game, user=player).consecutive_timeouts == 1
    assert client_of(player).get("/api/me/").json()["vacation"]["days_left"] == 0
    drain_outbox()
    assert Notification.objects.filter(user=player, kind="auto_vacation").count() == 1
    assert Notification.objects.filter(user=player, kind="autoplayed").count() == 1


def test_a_moscow_weekend_is_off_the_clock_from_the_turns_start():
    friday_evening = datetime(2026, 12, 11, 20, tzinfo=MOSCOW)  # a Friday, 20:00 MSK
    set_clock(friday_evening)
    players = UserFactory.create_batch(4, weekend_days=[SATURDAY, SUNDAY])
    game = started_game(players=players)
    # 4 hours until Saturday 00:00 MSK, the other 20 from Monday 00:00 MSK.
    monday = datetime(2026, 12, 14, 20, tzinfo=MOSCOW)
    assert abs(deadline_of(game) - monday) < timedelta(seconds=5)
    set_clock(datetime(2026, 12, 13, 12, tzinfo=MOSCOW))
    assert timeouts.sweep() == 0
    seen = game_answer(game, players[0])
    assert parsed(player_entry(seen, to_move(game))["away_until"]) == datetime(
        2026, 12, 14, tzinfo=MOSCOW
    )
    assert player_entry(seen, to_move(game))["away_reason"] == "day_off"
    card = client_of(players[0]).get(f"/api/users/{to_move(game).pk}/").json()
    assert (card["away_until"], card["away_reason"]) == (
        player_entry(seen, to_move(game))["away_until"],
        "day_off",
    )


def test_a_vacation_running_into_days_off_is_one_time_away_each_part_with_its_reason():
    set_clock(datetime(2026, 12, 11, 9, tzinfo=MOSCOW))  # a Friday, 09:00 MSK
    players = UserFactory.create_batch(4, weekend_days=[SATURDAY, SUNDAY])
    game = started_game(players=players)
    away = to_move(game)
    vacation = client_of(away).post("/api/me/vacation/", {"days": 1}, format="json")
    assert vacation.status_code == 200  # until Saturday 09:00, inside the weekend
    monday = datetime(2026, 12, 14, tzinfo=MOSCOW)

    def seen() -> tuple[datetime | None, str | None]:
        entry = player_entry(game_answer(game, players[0]), away)
        return parsed(entry["away_until"]), entry["away_reason"]

    assert seen() == (monday, "vacation")
    set_clock(datetime(2026, 12, 12, 12, tzinfo=MOSCOW))  # Saturday noon, the vacation over
    assert seen() == (monday, "day_off")
    set_clock(monday + HOUR)
    assert seen() == (None, None)


def test_a_new_york_weekend_set_mid_turn_across_the_spring_dst_change():
    # Sunday 14 March 2027 is 23 hours long in New York (EST -> EDT).
    set_clock(datetime(2027, 3, 12, 18, tzinfo=NEW_YORK))
    game = started_game()
    player = to_move(game)

    answer = client_of(player).patch(
        "/api/me/",
        {"vacation": {"weekend_days": [SATURDAY, SUNDAY], "time_zone": "America/New_York"}},
        format="json",
    )

    assert answer.status_code == 200
    assert answer.json()["vacation"]["weekend_days"] == [SATURDAY, SUNDAY]
    game.refresh_from_db()
    deadline = deadline_of(game).astimezone(NEW_YORK)
    assert abs(deadline - datetime(2027, 3, 15, 18, tzinfo=NEW_YORK)) < timedelta(seconds=5)
    assert deadline.utcoffset() == timedelta(hours=-4)  # EDT by then
    set_clock(datetime(2027, 3, 14, 23, tzinfo=NEW_YORK))
    assert timeouts.sweep() == 0
    set_clock(deadline_of(game) + timedelta(seconds=1))
    assert timeouts.sweep() == 1


def test_a_new_york_weekend_across_the_autumn_dst_change():
    # Sunday 7 November 2027 is 25 hours long in New York (EDT -> EST).
    set_clock(datetime(2027, 11, 5, 18, tzinfo=NEW_YORK))
    players = UserFactory.create_batch(
        4, weekend_days=[SATURDAY, SUNDAY], time_zone="America/New_York"
    )
    game = started_game(players=players)
    deadline = deadline_of(game).astimezone(NEW_YORK)
    assert abs(deadline - datetime(2027, 11, 8, 18, tzinfo=NEW_YORK)) < timedelta(seconds=5)
    assert deadline.utcoffset() == timedelta(hours=-5)  # EST by then
    assert abs(deadline - started_of(game) - (DAY + timedelta(hours=49))) < timedelta(seconds=5)


@pytest.mark.parametrize(
    "body",
    [
        {"vacation": {"weekend_days": [0, 1, 2, 3]}},
        {"vacation": {"weekend_days": [7]}},
        {"vacation": {"time_zone": "Mars/Olympus"}},
    ],
)
def test_bad_days_off_or_zones_are_400(body):
    answer = client_of(UserFactory.create()).patch("/api/me/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"


def test_reminders_wait_for_the_player_to_come_back():
    game = started_game()
    player = to_move(game)
    clock.advance(timedelta(hours=21))
    # A one-day vacation: 3 hours of the turn are left when it ends.
    assert (
        client_of(player).post("/api/me/vacation/", {"days": 1}, format="json").status_code == 200
    )
    clock.advance(DAY - timedelta(hours=1))  # within 80 % of the moved deadline, still away
    assert timeouts.sweep_turn_reminders() == 0
    clock.advance(timedelta(hours=2))  # back
    assert timeouts.sweep_turn_reminders() == 1


def test_bots_and_live_games_are_never_away():
    set_clock(datetime(2027, 3, 13, 12, tzinfo=UTC))  # a Saturday
    players = UserFactory.create_batch(4, weekend_days=[SATURDAY, SUNDAY], time_zone="UTC")
    game = started_game(players=players, mode="live")
    assert deadline_of(game) == started_of(game) + settings.TURN_LIMIT["live"]
    assert all(player["away_until"] is None for player in game_answer(game, players[0])["players"])
