"""The one loader and the one writer of a game row, in written-out SQL: the club's one exception
to reading and writing through the ORM (tests/games/test_store.py pins what it reads and writes
to what the ORM reads).

Every game read and every move runs `load`, and every move (the API's and the deadline sweep's)
is written by `write`: the hottest queries. `load` locks the row and reads the game, its seats
with their players' names and the club's clock; `write` inserts the moves and updates the game
in one statement, so a move costs one round trip. Values are converted by the model fields
themselves, as the ORM would. Each statement here is `prepared`: PostgreSQL plans it once per
connection, not on every read and move (club/prepared.py).
"""

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import DateTimeField, Field, JSONField
from django.db.models.expressions import Col
from django.utils import timezone

from accounts.models import User
from club import clock
from club.prepared import prepared
from games.models import Game, Move, Seat


@dataclass(frozen=True)
class Table:
    """A game with its seats, by seat number (what every view of a game shows)."""

    game: Game
    seats: tuple[Seat, ...]

    def seat_of(self, user: User) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user.pk), None)

    def seat_users(self) -> dict[int, int]:
        """seat number -> user id."""
        return {seat.seat: seat.user_id for seat in self.seats}


@dataclass(frozen=True)
class LoadedGame(Table):
    """A game row as `load` read it: its seats carry the players' shown names (id, username,
    display_name) and whether they are bots (bot_level), and `now` is the club's clock at the
    read."""

    now: datetime


# Seat fields and the player's fields a game shows and times by (names, their correspondence
# time off), per seat, as one JSON array column.
_USER_FIELDS = {field.name: field for field in User._meta.concrete_fields}
_PLAYER_FIELDS = [
    _USER_FIELDS[name] for name in ("username", "display_name", "bot_level", *User.TIME_OFF_FIELDS)
]
_SEAT_KEYS = [(field.attname, f"s.{field.column}") for field in Seat._meta.concrete_fields] + [
    (f"player_{field.attname}", f"u.{field.column}") for field in _PLAYER_FIELDS
]
_SEAT_FIELDS = {field.attname: field for field in Seat._meta.concrete_fields}
# The game's columns, named (never `*`: a prepared statement's result must keep its shape when a
# column is added), and read into a Game with the database converters the ORM would apply.
_GAME_COLUMNS = list(Game._meta.concrete_fields)
_GAME_ATTNAMES = [field.attname for field in _GAME_COLUMNS]
Converter = Callable[[Any, Any, Any], Any]
# (array aggregate, object builder) of each database's JSON functions.
_JSON_FUNCTIONS = {
    "postgresql": ("jsonb_agg", "jsonb_build_object"),
    "sqlite": ("json_group_array", "json_object"),
}
# The rows of several games: their ids as one parameter (one prepared statement for any count).
_IDS_IN = {
    "postgresql": "g.id = ANY(%s)",
    "sqlite": "g.id IN (SELECT value FROM json_each(%s))",
}


@functools.cache
def _load_sql(*, vendor: str, many: bool) -> str:
    aggregate, build_object = _JSON_FUNCTIONS[vendor]
    pairs = ", ".join(f"'{key}', {column}" for key, column in _SEAT_KEYS)
    return prepared(
        f"SELECT {', '.join(f'g.{field.column}' for field in _GAME_COLUMNS)}, "
        f"{clock.now_column(vendor)} AS db_now, "
        f"(SELECT {aggregate}({build_object}({pairs})) FROM {Seat._meta.db_table} s "
        f"JOIN {User._meta.db_table} u ON u.id = s.user_id WHERE s.game_id = g.id) AS seat_rows "
        f"FROM {Game._meta.db_table} g WHERE {_IDS_IN[vendor] if many else 'g.id = %s'}"
    )


_LOCK_SQL = prepared(f"SELECT id FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE")


def _from_json(field: "Field[Any, Any]", *, to_python: bool) -> Callable[[Any], Any]:
    """How a value of `field` in the seats' JSON becomes the model's: JSON carries datetimes as
    text (SQLite's naive, in UTC), and SQLite's JSON functions quote a JSON column's text
    instead of nesting it."""
    if isinstance(field, DateTimeField):
        return lambda value: None if value is None else _aware(field.to_python(value))
    if isinstance(field, JSONField):
        return lambda value: json.loads(value) if isinstance(value, str) else value
    return field.to_python if to_python else lambda value: value


# (key in a seat's JSON object, attribute name, conversion), chosen once per field.
_SEAT_VALUES = [
    (name, name, _from_json(field, to_python=True)) for name, field in _SEAT_FIELDS.items()
]
# Only the fields a game needs of its players; other user fields load on access.
_PLAYER_VALUES = [("user_id", "id", lambda value: value)] + [
    (f"player_{field.attname}", field.attname, _from_json(field, to_python=False))
    for field in _PLAYER_FIELDS
]


_SEAT_NAMES = [name for _key, name, _convert in _SEAT_VALUES]
_PLAYER_NAMES = [name for _key, name, _convert in _PLAYER_VALUES]


# How select_related puts a related row on an instance (no descriptor checks: the ids match).
_SEAT_GAME = Seat._meta.get_field("game")
_SEAT_USER = Seat._meta.get_field("user")


def _seat_from_json(row: dict[str, Any], game: Game) -> Seat:
    seat_values = [convert(row[key]) for key, _name, convert in _SEAT_VALUES]
    seat = Seat.from_db(game._state.db, _SEAT_NAMES, seat_values)
    _SEAT_GAME.set_cached_value(seat, game)
    player_values = [convert(row[key]) for key, _name, convert in _PLAYER_VALUES]
    _SEAT_USER.set_cached_value(seat, User.from_db(game._state.db, _PLAYER_NAMES, player_values))
    return seat


def _database() -> BaseDatabaseWrapper:
    """The default database's connection itself: `django.db.connection` is a proxy that looks it
    up again on every attribute read, and the conversions of a game row read it ~40 times."""
    return connections[DEFAULT_DB_ALIAS]


@functools.cache
def _game_converters(vendor: str) -> list[tuple[int, list[Converter], Col]]:
    """(column index, converters, column) of the game's columns that the database's values need
    converting for, as the ORM's compiler finds them."""
    db = _database()
    converters = []
    for index, field in enumerate(_GAME_COLUMNS):
        column = field.get_col(Game._meta.db_table)
        functions = db.ops.get_db_converters(column) + column.get_db_converters(db)
        if functions:
            converters.append((index, functions, column))
    return converters


def _game_from_columns(columns: Sequence[Any], db: BaseDatabaseWrapper) -> Game:
    values = list(columns)
    for index, functions, column in _game_converters(db.vendor):
        for convert in functions:
            values[index] = convert(values[index], column, db)
    return Game.from_db(db.alias, _GAME_ATTNAMES, values)


def _aware(value: datetime) -> datetime:
    return timezone.make_aware(value, UTC) if timezone.is_naive(value) else value


def _loaded(row: tuple[Any, ...], db: BaseDatabaseWrapper) -> LoadedGame:
    width = len(_GAME_COLUMNS)
    game = _game_from_columns(row[:width], db)
    db_now, seat_rows = row[width:]
    seats = sorted(
        (_seat_from_json(seat_row, game) for seat_row in json.loads(seat_rows or "[]")),
        key=lambda seat: seat.seat,
    )
    return LoadedGame(game=game, seats=tuple(seats), now=clock.now_from_column(db_now))


def load(*, game_id: int, for_update: bool = False) -> LoadedGame | None:
    """The game and its seated players in one query; with `for_update` (inside a transaction)
    the game row is locked first (SQLite's transactions lock the whole database anyway).

    The lock is a statement of its own: a locking SELECT that waited for another transaction
    rereads the row it locked, but its seats subquery keeps the snapshot from before the wait,
    so two players taking one seat both saw it free and one got the constraint's 500. The read
    after the lock takes a new snapshot (READ COMMITTED) that sees every commit before it.
    """
    db = _database()
    with db.cursor() as cursor:
        if for_update and db.vendor != "sqlite":
            cursor.execute(_LOCK_SQL, [game_id])
        cursor.execute(_load_sql(vendor=db.vendor, many=False), [game_id])
        row = cursor.fetchone()
    return None if row is None else _loaded(row, db)


def load_many(*, game_ids: list[int]) -> list[LoadedGame]:
    """Games the caller has already locked (the sweep claims them), in the order of `game_ids`."""
    if not game_ids:
        return []
    db = _database()
    ids = game_ids if db.vendor == "postgresql" else json.dumps(game_ids)
    with db.cursor() as cursor:
        cursor.execute(_load_sql(vendor=db.vendor, many=True), [ids])
        loaded = {game.game.pk: game for game in (_loaded(row, db) for row in cursor.fetchall())}
    return [loaded[game_id] for game_id in game_ids]


_MOVE_FIELDS = [field for field in Move._meta.concrete_fields if not field.primary_key]
_GAME_FIELDS = {field.name: field for field in Game._meta.concrete_fields}
# What a move (or abandoning the game) can change in the game row.
_GAME_FIELDS_A_MOVE_CHANGES = [
    _GAME_FIELDS[name]
    for name in (
        "version",
        "state",
        "deal_number",
        "scores",
        "status",
        "turn_seat",
        "turn_started_at",
        "turn_deadline",
        "finished_at",
        "winner_team",
        "abandoned_by_seat",
        "deal_break_until",
    )
]


_UPDATE_SQL = prepared(
    f"UPDATE {Game._meta.db_table} SET "
    + ", ".join(f"{field.column} = %s" for field in _GAME_FIELDS_A_MOVE_CHANGES)
    + " WHERE id = %s"
)


@functools.cache
def _insert_sql(count: int) -> str:
    """The INSERT of `count` moves."""
    row = "(" + ", ".join(["%s"] * len(_MOVE_FIELDS)) + ")"
    return (
        f"INSERT INTO {Move._meta.db_table} ({', '.join(f.column for f in _MOVE_FIELDS)}) "
        f"VALUES {', '.join([row] * count)}"
    )


@functools.cache
def _insert_and_update_sql(count: int) -> str:
    return prepared(f"WITH inserted AS ({_insert_sql(count)}) {_UPDATE_SQL}")


def write(*, game: Game, moves: list[Move]) -> None:
    """INSERT the moves (if any) and UPDATE the fields a move changes in the (locked) game row.

    On PostgreSQL one statement (the INSERT in a WITH), so one round trip; SQLite runs the two.
    """
    db = _database()
    update_params = [
        field.get_db_prep_save(getattr(game, field.attname), db)
        for field in _GAME_FIELDS_A_MOVE_CHANGES
    ] + [game.pk]
    if not moves:
        with db.cursor() as cursor:
            cursor.execute(_UPDATE_SQL, update_params)
        return
    insert_params = [
        field.get_db_prep_save(getattr(move, field.attname), db)
        for move in moves
        for field in _MOVE_FIELDS
    ]
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            cursor.execute(_insert_and_update_sql(len(moves)), insert_params + update_params)
        else:
            cursor.execute(_insert_sql(len(moves)), insert_params)
            cursor.execute(_UPDATE_SQL, update_params)
