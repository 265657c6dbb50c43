"""Fields' values read from written-out SELECTs as the ORM reads them: for the player card's two
reads that stay written out (games.selectors.player_record, moderation.selectors.report_targets),
where the ORM costs several milliseconds of CPU more per visit."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model

Converter = Callable[[Any, Any, Any], Any]


def fields_of(model: type[Model], *names: str) -> list["Field[Any, Any]"]:
    """The model's concrete fields by name (a foreign key's is its `_id` column)."""
    fields = []
    for name in names:
        field = model._meta.get_field(name)
        if not (isinstance(field, Field) and field.concrete):
            raise ValueError(f"{model.__name__}.{name} is not a column")
        fields.append(field)
    return fields


class FieldRows:
    """Reads the leading columns of a written-out SELECT that are these model fields' (of any
    models, in this order) with the database converters the ORM would apply: what
    `.values_list()` of those fields gives, without compiling a query on every call.

    The converters are worked out once per database."""

    def __init__(self, fields: Sequence["Field[Any, Any]"]) -> None:
        self.fields = list(fields)
        self._converters: dict[str, list[tuple[int, list[Converter], Any]]] = {}

    def columns(self, aliases: Mapping[type[Model], str]) -> str:
        """The SELECT list of the fields' columns, each from its model's table alias."""
        return ", ".join(f"{aliases[field.model]}.{field.column}" for field in self.fields)

    def _converters_for_connection(self) -> list[tuple[int, list[Converter], Any]]:
        converters = self._converters.get(connection.vendor)
        if converters is None:
            converters = []
            for index, field in enumerate(self.fields):
                column = field.get_col(field.model._meta.db_table)
                functions = connection.ops.get_db_converters(column)
                functions += column.get_db_converters(connection)
                if functions:
                    converters.append((index, functions, column))
            self._converters[connection.vendor] = converters
        return converters

    def read(self, row: Sequence[Any]) -> tuple[list[Any], tuple[Any, ...]]:
        """The fields' values, and the row's columns after them as they are."""
        width = len(self.fields)
        values = list(row[:width])
        for index, functions, column in self._converters_for_connection():
            for convert in functions:
                values[index] = convert(values[index], column, connection)
        return values, tuple(row[width:])
