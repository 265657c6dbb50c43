"""The statements PostgreSQL keeps prepared on each connection: the game store's, no others.

A statement that psycopg prepares is parsed once per connection, and PostgreSQL may then run it on
one generic plan, made without the values. Planning the store's load afresh for each run cost
more than running it (its seats joined to their players: ~0.13 ms of planning, ~0.03 ms of
execution), and on every game read and move. Its plan never depends on the values (a game by its
primary key), so the store's statements are prepared (`prepared`) and get a generic plan after
PostgreSQL's five custom ones (plan_cache_mode `auto`, its default).

Every other statement is sent unprepared, and so planned for its own values: a generic plan
ignores skew (1 % of reports are open, and the partial indexes made for such shares): when
psycopg prepared every statement a connection repeated, the moderators' open queue took 2.5 times
as long (bench/moderation.py).
"""

from typing import Any

# django-stubs lack it: Django defines it only where psycopg 3 is installed.
from django.db.backends.postgresql.base import ServerBindingCursor  # type: ignore[attr-defined]

_PREPARED: set[str] = set()


def prepared(sql: str) -> str:
    """`sql`, to be prepared on each connection that runs it (a statement whose best plan is the
    same for any values)."""
    _PREPARED.add(sql)
    return sql


class Cursor(ServerBindingCursor):
    """Django's server-binding cursor that prepares the statements marked `prepared` and only
    them (psycopg would otherwise prepare any statement a connection runs `prepare_threshold`
    times)."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, **kwargs: Any
    ) -> Any:
        if prepare is None:
            prepare = isinstance(query, str) and query in _PREPARED
        return super().execute(query, params, prepare=prepare, **kwargs)
