"""PostgreSQL expressions the ORM lacks (each with SQLite's equivalent for the embedded run)."""

from typing import Any

from django.db.models import BooleanField, Func


class AnyOf(Func):
    """`column = ANY(ARRAY(subquery))`. PostgreSQL runs the subquery first and reads the column's
    rows by its index for each value, however many rows per value its statistics guess; for
    `column IN (subquery)` it may instead read every row of the other side (the players' seats
    of all their past games) on that guess. A list of values would do the same as this, at the
    cost of a parameter each."""

    arg_joiner = " = ANY(ARRAY"
    template = "%(expressions)s)"
    output_field = BooleanField()

    def __init__(self, column: Any, subquery: Any) -> None:
        super().__init__(column, subquery)

    def as_sqlite(self, compiler: Any, connection: Any, **extra_context: Any) -> Any:
        # The embedded run's SQLite has no arrays: `column IN (subquery)`, the same rows.
        return self.as_sql(
            compiler, connection, template="%(expressions)s", arg_joiner=" IN ", **extra_context
        )
