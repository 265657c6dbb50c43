"""Correspondence time off as spans of time a turn's clock does not run (pure: no Django, no I/O).

A correspondence turn has a budget (24 h, R-CLUB-1). Its player's vacation, their days off (whole
days in their own time zone, so a day is 23 or 25 hours across a daylight-saving change) and an
agreed pause of the game are spans when that budget is not spent. `deadline_after` walks the
budget forward across them; `working_time` measures what is left of it. Together they move a
deadline when the spans change (`retimed`): the budget left at a moment under the old spans is
walked again under the new ones, so nothing is counted twice and nothing is lost.

The deadline itself stays one database column (Game.turn_deadline) that the sweep claims; these
functions only say where it goes.
"""

import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

Span = tuple[datetime, datetime]

# Days off a week at most: a turn's clock must run on most days (and every walk must end).
MAX_DAYS_OFF = 3


@dataclass(frozen=True)
class Away:
    """When a turn's clock stops: fixed spans (a vacation, a pause) and weekly days off (0 =
    Monday) in the time zone `time_zone`."""

    spans: tuple[Span, ...] = ()
    days_off: frozenset[int] = frozenset()
    time_zone: str = "UTC"
    _zone: ZoneInfo = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.days_off) > MAX_DAYS_OFF or not self.days_off <= set(range(7)):
            raise ValueError(f"At most {MAX_DAYS_OFF} days off a week, each 0-6.")
        object.__setattr__(self, "_zone", ZoneInfo(self.time_zone))

    def with_span(self, span: Span | None) -> "Away":
        """These spans and one more (none: the same)."""
        if span is None or span[1] <= span[0]:
            return self
        return Away(spans=(*self.spans, span), days_off=self.days_off, time_zone=self.time_zone)

    def spans_from(self, start: datetime) -> Iterator[Span]:
        """The spans ending after `start`, merged where they touch or overlap, in order; endless
        when there are days off."""
        fixed = sorted(span for span in self.spans if span[1] > start)
        merged: Span | None = None
        for span in heapq.merge(fixed, self._days_off_from(start)):
            if merged is not None and span[0] <= merged[1]:
                merged = (merged[0], max(merged[1], span[1]))
                continue
            if merged is not None:
                yield merged
            merged = span
        if merged is not None:
            yield merged

    def _days_off_from(self, start: datetime) -> Iterator[Span]:
        """Each day off from the one holding `start` on: local midnight to local midnight."""
        if not self.days_off:
            return
        day = start.astimezone(self._zone).date()
        while True:
            if day.weekday() in self.days_off:
                yield self._midnight(day), self._midnight(day + timedelta(days=1))
            day += timedelta(days=1)

    def _midnight(self, day: date) -> datetime:
        return datetime.combine(day, time(0), tzinfo=self._zone).astimezone(UTC)

    def away_until(self, now: datetime) -> datetime | None:
        """The end of the span `now` falls in (on vacation, on a day off, paused), else None."""
        for begins, ends in self.spans_from(now):
            return ends if begins <= now else None
        return None


def deadline_after(start: datetime, budget: timedelta, away: Away) -> datetime:
    """When `budget` of clock time, starting at `start`, runs out outside the `away` spans."""
    moment, left = start, budget
    for begins, ends in away.spans_from(start):
        if begins > moment:
            if moment + left <= begins:
                break
            left -= begins - moment
        moment = max(moment, ends)
    return moment + left


def working_time(start: datetime, end: datetime, away: Away) -> timedelta:
    """Clock time between `start` and `end` outside the `away` spans (none when end <= start)."""
    spent, moment = timedelta(0), start
    for begins, ends in away.spans_from(start):
        if begins >= end:
            break
        if begins > moment:
            spent += begins - moment
        moment = max(moment, ends)
        if moment >= end:
            return spent
    return spent + max(end - moment, timedelta(0))


def retimed(deadline: datetime, *, at: datetime, old: Away, new: Away) -> datetime:
    """A deadline worked out under `old` spans, moved to the `new` ones from the moment `at` on:
    the budget left at `at` runs out under the new spans (what was spent before `at` stays
    spent)."""
    return deadline_after(at, working_time(at, deadline, old), new)
