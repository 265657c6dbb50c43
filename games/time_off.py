"""Correspondence time off: vacations, automatic vacation hours and days off (issue 21).

Only correspondence (async) turns of people are concerned; live games and bots never are.

- The allowance is `CORRESPONDENCE_VACATION_DAYS` a calendar year (UTC), counted in hours: a
  vacation of N days is N × 24 hours, each charged to the year it starts in (a vacation across
  31 December is charged to both years, and may not exceed either year's allowance), and ending
  it early gives back the whole hours not begun to their years. A vacation must end within
  BOOKING_HORIZON (365 days) of now, so it falls in this year and the next at most: the user's
  row keeps those two years' hours. It renews on 1 January (UTC).
- A vacation (now or from a date, for whole days) stops the clocks of the player's turns: when
  it is booked, changed or ended, every running turn of theirs is re-timed (`games.away`), and
  a turn starting meanwhile starts its clock at its end (games.services.turns.start_turn). The
  deadline stays the one column the sweep claims: it is moved, never doubled.
- Days off a week (at most three, in the player's own time zone) stop the clocks likewise.
- Automatic vacation (on unless the player switched it off): when a turn times out and the
  player has an hour left, the sweep spends an hour instead (`take_overdue_turn`). That hour
  covers every turn of theirs timing out in it (each moves an hour on, as the sweep reaches
  it), is charged once, and the player is told once a spell (a step within a turn limit of the
  last one continues it). With no hour left, the turn times out as before.
"""

import functools
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import available_timezones

from django.conf import settings
from django.db import transaction
from django.db.models import F

from accounts.models import User
from canasta_club import clock
from canasta_club.errors import Conflict, Invalid
from canasta_club.i18n import text
from games.away import MAX_DAYS_OFF, Away, Span, retimed
from games.models import Game
from notifications.models import Kind
from notifications.services import notify

HOUR = timedelta(hours=1)
AUTO_STEP = HOUR
# How far ahead a vacation may reach: it must end within this of now.
BOOKING_HORIZON = timedelta(days=365)


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


def _year(moment: datetime) -> int:
    return moment.astimezone(UTC).year


def _hours_used(user: User, year: int) -> int:
    """Hours of `year`'s allowance charged so far (the row keeps `vacation_year`'s and the next
    year's; any other year's are none)."""
    if year == user.vacation_year:
        return user.vacation_hours_used
    if year == user.vacation_year + 1:
        return user.vacation_hours_next_year
    return 0


def hours_left_in(user: User, year: int) -> int:
    return max(0, allowance_hours() - _hours_used(user, year))


def hours_left(user: User, now: datetime) -> int:
    """This year's hours left."""
    return hours_left_in(user, _year(now))


def hours_by_year(begins: datetime, hours: int) -> dict[int, int]:
    """The `hours` whole hours from `begins`, counted by the (UTC) year each one starts in."""
    counted: dict[int, int] = {}
    while hours > 0:
        year = _year(begins)
        new_year = datetime(year + 1, 1, 1, tzinfo=UTC)
        in_year = min(hours, math.ceil((new_year - begins) / HOUR))
        counted[year] = in_year
        hours -= in_year
        begins += in_year * HOUR
    return counted


def _vacation_span(user: User) -> Span | None:
    if user.vacation_start is None or user.vacation_until is None:
        return None
    return user.vacation_start, user.vacation_until


def player_away(user: User | None) -> Away:
    """What stops the clock of this player's turns: a booked vacation and days off (an
    automatic vacation hour is applied by the sweep to the turns timing out in it). Bots and
    empty seats: nothing."""
    if user is None or user.is_bot:
        return Away()
    return _days_off(user).with_span(None if user.vacation_auto else _vacation_span(user))


def _days_off(user: User) -> Away:
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
    vacation = _vacation_span(user)
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
        days_left_next_year=round(hours_left_in(user, _year(now) + 1) / 24, 2),
        until=user.vacation_until if running else None,
        starts=user.vacation_start if running else None,
        booked=running and user.vacation_start is not None and user.vacation_start > now,
        auto=user.auto_vacation,
        weekend_days=sorted(user.weekend_days or []),
        time_zone=user.time_zone,
    )


def _lock_player(user: User) -> tuple[User, list[Game]]:
    """The player's row and their running correspondence turns' games, locked: the games first,
    in id order, as a move locks its game and then (when it ends the game) its players' rows to
    count it, so this order cannot deadlock with it."""
    turns = list(
        Game.objects.select_for_update(of=("self",))
        .filter(
            status=Game.Status.ACTIVE,
            mode=Game.Mode.ASYNC,
            turn_deadline__isnull=False,
            seats__user=user,
            seats__seat=F("turn_seat"),
        )
        .order_by("pk")
        .only("pk", "turn_deadline", "paused_from", "paused_until")
    )
    return User.objects.select_for_update(of=("self",)).get(pk=user.pk), turns


def _charge(user: User, now: datetime, hours: dict[int, int]) -> None:
    """More of each year's allowance used (`hours` by year; a negative number gives some back),
    kept as this year's and the next year's (the horizon lets no vacation reach further)."""
    year = _year(now)
    this_year, next_year = (_hours_used(user, y) + hours.get(y, 0) for y in (year, year + 1))
    user.vacation_year = year
    user.vacation_hours_used = max(0, this_year)
    user.vacation_hours_next_year = max(0, next_year)


def _retime_turns(*, turns: list[Game], old: Away, new: Away, now: datetime) -> None:
    """Move the deadlines of the player's running correspondence turns (`_lock_player`'s) from
    the `old` time off to the `new` one (each game's pause kept in both)."""
    for game in turns:
        assert game.turn_deadline is not None  # filtered
        pause = pause_span(game)
        deadline = retimed(
            game.turn_deadline, at=now, old=old.with_span(pause), new=new.with_span(pause)
        )
        if deadline != game.turn_deadline:
            Game.objects.filter(pk=game.pk).update(turn_deadline=deadline)


def _too_much(year: int, now: datetime) -> Invalid:
    return Invalid(
        "vacation_exceeds_allowance",
        text(
            "Столько дней отпуска у вас не осталось в этом году.",
            "You do not have that many vacation days left this year.",
        )
        if year == _year(now)
        else text(
            f"Столько дней отпуска у вас не осталось в {year} году.",
            f"You do not have that many vacation days left in {year}.",
        ),
    )


def _too_far_ahead(now: datetime) -> Invalid:
    last = (now + BOOKING_HORIZON).astimezone(UTC)
    return Invalid(
        "vacation_too_far_ahead",
        text(
            f"Отпуск можно назначить не больше чем на год вперёд: он должен закончиться "
            f"не позже {last:%d.%m.%Y %H:%M} UTC.",
            f"A vacation may be booked at most a year ahead: it must end by "
            f"{last:%Y-%m-%d %H:%M} UTC.",
        ),
    )


def _invalid(field: str, message: str) -> Invalid:
    return Invalid("invalid", message, errors={field: [message]})


@transaction.atomic(durable=True)
def start_vacation(*, user: User, days: int, start: datetime | None = None) -> Vacation:
    """A vacation of `days` whole days from `start` (now when None), each hour charged to its
    year's allowance; the player's running correspondence turns stop for it."""
    now = clock.now()
    begins = now if start is None or start < now else start
    if start is not None and start < now - HOUR:
        raise _invalid(
            "start",
            text("Отпуск не может начаться в прошлом.", "A vacation cannot start in the past."),
        )
    if days < 1:
        raise _invalid("days", text("Хотя бы один день.", "At least one day."))
    if days > BOOKING_HORIZON.days or begins + timedelta(days=days) > now + BOOKING_HORIZON:
        raise _too_far_ahead(now)
    charge = hours_by_year(begins, days * 24)
    user, turns = _lock_player(user)
    if not user.vacation_auto and user.vacation_until is not None and user.vacation_until > now:
        raise Conflict(
            "already_on_vacation",
            text(
                "У вас уже есть отпуск: сначала закончите или отмените его.",
                "You already have a vacation: end or cancel it first.",
            ),
        )
    for year, hours in charge.items():
        if hours > hours_left_in(user, year):
            raise _too_much(year, now)
    old = player_away(user)
    _charge(user, now, charge)
    user.vacation_start, user.vacation_until = begins, begins + timedelta(days=days)
    user.vacation_auto = False
    user.save(update_fields=User.TIME_OFF_FIELDS)
    _retime_turns(turns=turns, old=old, new=player_away(user), now=now)
    return vacation_of(user, now=now)


@transaction.atomic(durable=True)
def end_vacation(*, user: User) -> Vacation:
    """End the running vacation now (or cancel a booked one): the hours not begun go back to
    the allowance, and the player's turns run again with the time they had left."""
    now = clock.now()
    user, turns = _lock_player(user)
    span = _vacation_span(user)
    if span is None or span[1] <= now:
        raise Conflict(
            "not_on_vacation",
            text("У вас нет отпуска, который можно закончить.", "You have no vacation to end."),
        )
    begins, until = span
    charged = math.ceil((until - begins) / HOUR)
    spent = math.ceil(max(now - begins, timedelta(0)) / HOUR)
    not_begun = hours_by_year(begins + spent * HOUR, charged - spent)
    old = player_away(user)
    _charge(user, now, {year: -hours for year, hours in not_begun.items()})
    user.vacation_start = user.vacation_until = None
    user.vacation_auto = False
    user.save(update_fields=User.TIME_OFF_FIELDS)
    _retime_turns(turns=turns, old=old, new=player_away(user), now=now)
    return vacation_of(user, now=now)


def check_time_zone(name: str) -> str:
    if name not in _time_zones():
        raise _invalid("time_zone", text("Неизвестный часовой пояс.", "Unknown time zone."))
    return name


def check_weekend_days(days: list[int]) -> list[int]:
    chosen = sorted(set(days))
    if len(chosen) > MAX_DAYS_OFF or any(day not in range(7) for day in chosen):
        raise _invalid(
            "weekend_days",
            text(
                f"Не больше {MAX_DAYS_OFF} выходных в неделю, дни 0 (пн) – 6 (вс).",
                f"At most {MAX_DAYS_OFF} days off a week, days 0 (Mon) to 6 (Sun).",
            ),
        )
    return chosen


@functools.cache
def _time_zones() -> frozenset[str]:
    return frozenset(available_timezones())


@transaction.atomic(durable=True)
def update_time_off(
    *,
    user: User,
    auto: bool | None = None,
    weekend_days: list[int] | None = None,
    time_zone: str | None = None,
) -> Vacation:
    """The player's automatic vacation switch, days off and time zone; their running turns are
    re-timed for the new days off from now on (the time already spent stays spent)."""
    now = clock.now()
    if time_zone is not None:
        check_time_zone(time_zone)
    days = check_weekend_days(weekend_days) if weekend_days is not None else None
    user, turns = _lock_player(user)
    old = player_away(user)
    if auto is not None:
        user.auto_vacation = auto
    if days is not None:
        user.weekend_days = days
    if time_zone is not None:
        user.time_zone = time_zone
    user.save(update_fields=User.TIME_OFF_FIELDS)
    _retime_turns(turns=turns, old=old, new=player_away(user), now=now)
    return vacation_of(user, now=now)


def _may_take(user: User, deadline: datetime, now: datetime) -> bool:
    """A vacation covers the deadline, or an automatic hour may be spent (as far as `user`,
    maybe read before the lock, tells)."""
    span = _vacation_span(user)
    covered = span is not None and span[0] <= deadline < span[1]
    return covered or (user.auto_vacation and hours_left(user, now) >= AUTO_STEP / HOUR)


def take_overdue_turn(*, game: Game, player: User, now: datetime) -> bool:
    """A person's correspondence turn is overdue (the game locked by the sweep): True when it
    does not time out now, a vacation taking it (the game's `turn_deadline` then moved; the
    caller writes it).

    An hour of vacation (booked, or the automatic hour being spent) covering the deadline moves
    it past that hour; else, with automatic vacation on and an hour left, a new hour is spent
    from the deadline (the player told once a spell). A player whose time off is being changed
    right now (their row locked) is left for the next sweep, which then finds the new deadline.
    """
    assert game.turn_deadline is not None
    deadline = game.turn_deadline
    if not _may_take(player, deadline, now):
        return False  # as the game's read of the player says: no lock, no query
    user = (
        User.objects.select_for_update(skip_locked=True, of=("self",)).filter(pk=player.pk).first()
    )
    if user is None:
        return True
    if not _may_take(user, deadline, now):
        return False
    span = _vacation_span(user)
    if span is None or not span[0] <= deadline < span[1]:
        span = _spend_hour(user, deadline=deadline, now=now, game_id=game.pk)
    # The deadline was worked out without this vacation span (it falls inside it).
    old = _days_off(user).with_span(pause_span(game))
    game.turn_deadline = retimed(deadline, at=span[0], old=old, new=old.with_span(span))
    return True


def _spend_hour(user: User, *, deadline: datetime, now: datetime, game_id: int) -> Span:
    """An automatic vacation hour from the deadline (from now after an outage, so a sweep that
    was down does not spend an hour per hour it missed)."""
    span = (deadline, max(deadline, now) + AUTO_STEP)
    continues = (
        user.vacation_auto
        and user.vacation_until is not None
        and deadline - user.vacation_until < settings.TURN_LIMIT[Game.Mode.ASYNC]
    )
    _charge(user, now, {_year(now): 1})
    user.vacation_start, user.vacation_until = span
    user.vacation_auto = True
    user.save(update_fields=User.TIME_OFF_FIELDS)
    if not continues:
        notify(
            user_id=user.pk,
            kind=Kind.AUTO_VACATION,
            game_id=game_id,
            payload={"until": span[1].isoformat(), "days_left": hours_left(user, now) / 24},
            dedupe_key=f"{user.pk}:{deadline.isoformat()}",
        )
    return span
