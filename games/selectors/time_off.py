"""Correspondence time off, as read (issue 21): a player's allowance and vacation, what stops the
clock of a turn (vacation, days off, the game's agreed pause), who is away and until when. The
writes (booking, ending, the automatic hour, days off) are games.services.time_off, which says
how the allowance is counted."""

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings

from accounts.models import User
from club import clock
from games.away import Away, Span
from games.models import Game

HOUR = timedelta(hours=1)


@dataclass(frozen=True)
class Vacation:
    """A player's time off as the API and the profile show it."""

    days_left: float  # this year's
    days_left_next_year: float
    until: datetime | None
    starts: datetime | None
    booked: bool  # it starts later
    auto: bool
    weekend_days: list[int]
    time_zone: str


def allowance_hours() -> int:
    return settings.CORRESPONDENCE_VACATION_DAYS * 24


def year_of(moment: datetime) -> int:
    return moment.astimezone(UTC).year


def hours_used(user: User, year: int) -> int:
    """Hours of `year`'s allowance charged so far (the row keeps `vacation_year`'s and the next
    year's; any other year's are none)."""
    if year == user.vacation_year:
        return user.vacation_hours_used
    if year == user.vacation_year + 1:
        return user.vacation_hours_next_year
    return 0


def hours_left_in(user: User, year: int) -> int:
    return max(0, allowance_hours() - hours_used(user, year))


def hours_left(user: User, now: datetime) -> int:
    """This year's hours left."""
    return hours_left_in(user, year_of(now))


def hours_by_year(begins: datetime, hours: int) -> dict[int, int]:
    """The `hours` whole hours from `begins`, counted by the (UTC) year each one starts in."""
    counted: dict[int, int] = {}
    while hours > 0:
        year = year_of(begins)
        new_year = datetime(year + 1, 1, 1, tzinfo=UTC)
        in_year = min(hours, math.ceil((new_year - begins) / HOUR))
        counted[year] = in_year
        hours -= in_year
        begins += in_year * HOUR
    return counted


def vacation_span(user: User) -> Span | None:
    if user.vacation_start is None or user.vacation_until is None:
        return None
    return user.vacation_start, user.vacation_until


def player_away(user: User | None) -> Away:
    """What stops the clock of this player's turns: a booked vacation and days off (an
    automatic vacation hour is applied by the sweep to the turns timing out in it). Bots and
    empty seats: nothing."""
    if user is None or user.is_bot:
        return Away()
    return days_off(user).with_span(None if user.vacation_auto else vacation_span(user))


def days_off(user: User) -> Away:
    return Away(days_off=frozenset(user.weekend_days or ()), time_zone=user.time_zone)


def pause_span(game: Game) -> Span | None:
    if game.paused_from is None or game.paused_until is None:
        return None
    return game.paused_from, game.paused_until


@dataclass(frozen=True)
class PauseState:
    """A game's pause as players see it: asked (by a seat, for days, until it lapses), running
    (`paused_until`), the seats that said yes (to the pause asked, or to resume early)."""

    asked_by: int | None
    days: int | None
    asked_until: datetime | None
    paused_until: datetime | None
    votes: list[int]


def ask_lapses_at(game: Game) -> datetime | None:
    if game.pause_asked_at is None:
        return None
    return game.pause_asked_at + timedelta(hours=settings.CORRESPONDENCE_PAUSE_ASK_HOURS)


def is_paused(game: Game, now: datetime) -> bool:
    return game.paused_until is not None and game.paused_until > now


def is_asked(game: Game, now: datetime) -> bool:
    lapses = ask_lapses_at(game)
    return lapses is not None and lapses > now and not is_paused(game, now)


def pause_state_of(game: Game, now: datetime) -> PauseState:
    asked, paused = is_asked(game, now), is_paused(game, now)
    return PauseState(
        asked_by=game.pause_asked_by if asked else None,
        days=game.pause_days if asked else None,
        asked_until=ask_lapses_at(game) if asked else None,
        paused_until=game.paused_until if paused else None,
        votes=sorted(game.pause_votes) if asked or paused else [],
    )


def turn_away(game: Game, user: User | None) -> Away:
    """What stops the clock of this game's turn of `user` (None: an empty seat): their time off
    and the game's agreed pause. Live games never stop."""
    if game.mode != Game.Mode.ASYNC:
        return Away()
    return player_away(user).with_span(pause_span(game))


AWAY_VACATION = "vacation"
AWAY_DAY_OFF = "day_off"
AWAY_REASONS = (AWAY_VACATION, AWAY_DAY_OFF)


@dataclass(frozen=True)
class Absence:
    """A person away from their correspondence turns: back `until`, and why (`reason`: on
    vacation, an automatic hour included, or on a weekly day off) at the moment asked."""

    until: datetime
    reason: str


def absence(user: User, now: datetime) -> Absence | None:
    """Whether a person is on vacation or on a day off at `now`, and until when (a day off
    right after a vacation, or the other way round, runs on into one time away)."""
    if user.is_bot:
        return None
    vacation = vacation_span(user)
    # Most players take no days off and are not on vacation: every game read asks this of each
    # seat, so they are answered without building their time away.
    if not user.weekend_days and (vacation is None or not vacation[0] <= now < vacation[1]):
        return None
    until = player_away(user).with_span(vacation).away_until(now)
    if until is None:
        return None
    on_vacation = vacation is not None and vacation[0] <= now < vacation[1]
    return Absence(until=until, reason=AWAY_VACATION if on_vacation else AWAY_DAY_OFF)


def away_until(user: User, now: datetime) -> datetime | None:
    """When a person on vacation (an automatic hour included) or on a day off is back."""
    away = absence(user, now)
    return away.until if away is not None else None


def vacation_of(user: User, *, now: datetime | None = None) -> Vacation:
    now = now or clock.now()
    running = user.vacation_until is not None and user.vacation_until > now
    return Vacation(
        days_left=round(hours_left(user, now) / 24, 2),
        days_left_next_year=round(hours_left_in(user, year_of(now) + 1) / 24, 2),
        until=user.vacation_until if running else None,
        starts=user.vacation_start if running else None,
        booked=running and user.vacation_start is not None and user.vacation_start > now,
        auto=user.auto_vacation,
        weekend_days=sorted(user.weekend_days or []),
        time_zone=user.time_zone,
    )
