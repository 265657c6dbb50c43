"""Template helpers of correspondence time off: who is away until when, a player's vacation."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django import template
from django.conf import settings

from accounts.models import DEFAULT_TIME_ZONE, User
from club import clock
from club.i18n import current_language
from games.selectors import time_off

register = template.Library()

_MONTHS = {
    "ru": [
        "янв.",
        "февр.",
        "мар.",
        "апр.",
        "мая",
        "июн.",
        "июл.",
        "авг.",
        "сент.",
        "окт.",
        "нояб.",
        "дек.",
    ],
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
}
WEEKDAYS = {
    "ru": ["пн", "вт", "ср", "чт", "пт", "сб", "вс"],
    "en": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
}


def _moment(value: datetime | str) -> datetime:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def _local(value: datetime | str, zone: str) -> datetime:
    return _moment(value).astimezone(ZoneInfo(zone or DEFAULT_TIME_ZONE))


@register.filter
def short_date(value: datetime | str | None, zone: str = "") -> str:
    """'12 дек.' / '12 Dec': the day in `zone` (the viewer's; Moscow time for visitors)."""
    if not value:
        return ""
    local = _local(value, zone)
    return f"{local.day} {_MONTHS[current_language()][local.month - 1]}"


@register.filter
def short_date_time(value: datetime | str | None, zone: str = "") -> str:
    """'12 дек., 18:00' / '12 Dec, 18:00': the day and time in `zone` (Moscow for visitors)."""
    if not value:
        return ""
    local = _local(value, zone)
    return f"{short_date(local, zone)}, {local:%H:%M}"


@register.simple_tag
def weekday_time(value: datetime | None, zone: str, now: datetime) -> str:
    """'пн 14:05' / 'Mon 14:05': a moment of the coming week (from `now`, the club's clock) as
    its weekday and time in `zone` (the viewer's; Moscow time for visitors); a later one with
    its date, '12 дек., 14:05'."""
    if value is None:
        return ""
    local = _local(value, zone)
    if value - now >= timedelta(days=6):
        return short_date_time(local, zone)
    return f"{WEEKDAYS[current_language()][local.weekday()]} {local:%H:%M}"


@register.filter
def clock_time(value: datetime | str | None, zone: str = "") -> str:
    """'12.12 14:00' style: the day and time in `zone`, for a title."""
    if not value:
        return ""
    return _local(value, zone).strftime("%Y-%m-%d %H:%M %Z")


@register.filter
def weekday_name(day: int) -> str:
    return WEEKDAYS[current_language()][day]


@register.simple_tag
def absence(player: User) -> time_off.Absence | None:
    """Whether a player is on vacation or a day off, and until when (None: not away)."""
    return time_off.absence(player, clock.now())


@register.simple_tag
def vacation_of(user: User) -> time_off.Vacation:
    return time_off.vacation_of(user)


@register.simple_tag
def pause_days_max() -> int:
    return int(settings.CORRESPONDENCE_PAUSE_DAYS)


@register.simple_tag
def vacation_days_max() -> int:
    return int(settings.CORRESPONDENCE_VACATION_DAYS)
