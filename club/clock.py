"""The club's clock: the database's time, never a process's own.

Deadlines are compared with `now_expression()` inside queries, or with `now()` (one `SELECT`)
when a value is needed, so clock skew between web servers and workers does not matter.

Tests move time with `advance()`: an offset added on top of the database's clock, instead of
sleeping. The offset lives in this process only; the test worker (`start_worker`) runs in a
thread of the test process, so it sees the same shifted time. Production never sets it.
"""

from datetime import datetime, timedelta

from django.db import connection
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, Value
from django.db.models.expressions import Combinable
from django.db.models.functions import Now
from django.utils import timezone

_offset = timedelta(0)


def now_expression() -> Combinable:
    """The database's current time (plus the test offset), for use inside a query."""
    if not _offset:
        return Now()
    return ExpressionWrapper(
        Now() + Value(_offset, output_field=DurationField()), output_field=DateTimeField()
    )


def now() -> datetime:
    """The database's current time (plus the test offset)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement_timestamp()")
            (database_now,) = cursor.fetchone()
        return database_now + _offset
    # SQLite (the embedded default) runs inside this process: its clock is this machine's.
    return timezone.now() + _offset


def process_now() -> datetime:
    """This process's clock (plus the test offset), for choices where a query for the
    database's time would cost more than the servers' skew could matter: whether a stamp
    written at most once a minute is due again."""
    return timezone.now() + _offset


def now_column(vendor: str) -> str:
    """The database's time for the select list of written-out SQL; read it with now_from_column.

    NULL on SQLite, whose clock is this process's own: now_from_column asks no query for it.
    """
    return "statement_timestamp()" if vendor == "postgresql" else "NULL"


def now_from_column(value: datetime | None) -> datetime:
    """The club's time from a `now_column()` value."""
    return now() if value is None else value + _offset


def advance(delta: timedelta) -> None:
    """Move the club's time forward by `delta` (tests only)."""
    global _offset
    _offset += delta


def reset() -> None:
    """Back to the database's own time (tests only)."""
    global _offset
    _offset = timedelta(0)
