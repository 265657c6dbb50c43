"""games.away: the turn budget walked across vacations, days off in the player's zone, pauses."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.away import MAX_DAYS_OFF, Away, deadline_after, retimed, working_time

DAY = timedelta(hours=24)
SATURDAY, SUNDAY = 5, 6
MOSCOW, NEW_YORK = ZoneInfo("Europe/Moscow"), ZoneInfo("America/New_York")


def at(zone: ZoneInfo, year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=zone).astimezone(UTC)


def test_no_time_off_is_the_plain_budget():
    start = datetime(2026, 12, 2, 9, tzinfo=UTC)
    assert deadline_after(start, DAY, Away()) == start + DAY


def test_a_vacation_stops_the_clock_and_it_restarts_with_the_time_left():
    start = datetime(2026, 12, 2, 9, tzinfo=UTC)
    vacation = (start + timedelta(hours=10), start + timedelta(days=5, hours=10))
    # 10 hours spent before the vacation, 14 left after it.
    assert deadline_after(start, DAY, Away(spans=(vacation,))) == vacation[1] + timedelta(hours=14)


def test_a_turn_starting_during_a_vacation_starts_when_it_ends():
    vacation = (datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 8, tzinfo=UTC))
    start = datetime(2026, 12, 3, tzinfo=UTC)
    assert deadline_after(start, DAY, Away(spans=(vacation,))) == vacation[1] + DAY


def test_moscow_weekend_skips_saturday_and_sunday_local_midnight_to_midnight():
    friday_evening = at(MOSCOW, 2026, 12, 4, 20)  # Friday 20:00 MSK (UTC+3, no DST)
    away = Away(days_off=frozenset({SATURDAY, SUNDAY}), time_zone="Europe/Moscow")
    # 4 hours until Saturday 00:00 MSK, then the 20 left from Monday 00:00 MSK.
    assert deadline_after(friday_evening, DAY, away) == at(MOSCOW, 2026, 12, 7, 20)
    assert away.away_until(at(MOSCOW, 2026, 12, 5, 12)) == at(MOSCOW, 2026, 12, 7, 0)
    assert away.away_until(friday_evening) is None


def test_new_york_weekend_across_the_autumn_dst_change():
    # Sunday 1 November 2026 is 25 hours long in New York (EDT -> EST at 02:00).
    away = Away(days_off=frozenset({SATURDAY, SUNDAY}), time_zone="America/New_York")
    friday = at(NEW_YORK, 2026, 10, 30, 18)
    deadline = deadline_after(friday, DAY, away)
    assert deadline == at(NEW_YORK, 2026, 11, 2, 18)  # the same wall-clock time on Monday
    assert deadline.astimezone(NEW_YORK).utcoffset() == timedelta(hours=-5)
    # The two days off were 49 hours, so the deadline is 24 + 49 hours after the start.
    assert deadline - friday == DAY + timedelta(hours=49)


def test_new_york_weekend_across_the_spring_dst_change():
    # Sunday 8 March 2026 is 23 hours long in New York (EST -> EDT at 02:00).
    away = Away(days_off=frozenset({SATURDAY, SUNDAY}), time_zone="America/New_York")
    friday = at(NEW_YORK, 2026, 3, 6, 18)
    deadline = deadline_after(friday, DAY, away)
    assert deadline == at(NEW_YORK, 2026, 3, 9, 18)
    assert deadline - friday == DAY + timedelta(hours=47)


def test_a_vacation_running_into_a_weekend_is_one_span():
    away = Away(
        spans=((at(MOSCOW, 2026, 12, 3, 12), at(MOSCOW, 2026, 12, 5, 6)),),
        days_off=frozenset({SATURDAY, SUNDAY}),
        time_zone="Europe/Moscow",
    )
    assert away.away_until(at(MOSCOW, 2026, 12, 4, 0)) == at(MOSCOW, 2026, 12, 7, 0)


def test_ending_a_vacation_early_gives_back_the_time_left():
    start = datetime(2026, 12, 2, 9, tzinfo=UTC)
    booked = Away(spans=((start + timedelta(hours=4), start + timedelta(days=10)),))
    deadline = deadline_after(start, DAY, booked)
    back = start + timedelta(days=2)
    ended = Away(spans=((start + timedelta(hours=4), back),))
    # 4 hours were spent before the vacation: 20 are left from the moment the player is back.
    assert retimed(deadline, at=back, old=booked, new=ended) == back + timedelta(hours=20)


def test_more_days_off_than_allowed_are_refused():
    with pytest.raises(ValueError):
        Away(days_off=frozenset(range(MAX_DAYS_OFF + 1)))


moments = st.datetimes(
    min_value=datetime(2026, 1, 1), max_value=datetime(2028, 1, 1), timezones=st.just(UTC)
)
budgets = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=3))
zones = st.sampled_from(["Europe/Moscow", "America/New_York", "Europe/London", "Asia/Tokyo"])
lengths = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=15))
days = st.frozensets(st.integers(0, 6), max_size=MAX_DAYS_OFF)


@st.composite
def aways(draw: st.DrawFn) -> Away:
    spans = []
    for _ in range(draw(st.integers(0, 3))):
        begins = draw(moments)
        spans.append((begins, begins + draw(lengths)))
    return Away(spans=tuple(spans), days_off=draw(days), time_zone=draw(zones))


@given(start=moments, budget=budgets, away=aways())
def test_the_deadline_spends_exactly_the_budget(start, budget, away):
    deadline = deadline_after(start, budget, away)
    assert deadline >= start + budget
    assert working_time(start, deadline, away) == budget


@given(start=moments, budget=budgets, away=aways(), later=budgets)
def test_retiming_under_the_same_spans_keeps_the_deadline(start, budget, away, later):
    deadline = deadline_after(start, budget, away)
    moment = min(start + later, deadline)
    assert retimed(deadline, at=moment, old=away, new=away) == deadline


@given(start=moments, budget=budgets, away=aways())
def test_no_deadline_falls_inside_a_span(start, budget, away):
    deadline = deadline_after(start, budget, away)
    for begins, ends in away.spans_from(start):
        if begins >= deadline:
            break
        assert not begins < deadline < ends
