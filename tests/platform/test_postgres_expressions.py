"""club/postgres.py: each expression as PostgreSQL reads it and as the embedded run's SQLite
does."""

import pytest
from django.db import connections
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper
from django.db.models import F, Subquery

from accounts.models import User
from club.postgres import AnyOf

pytestmark = pytest.mark.django_db


def _followed_by_name() -> object:
    named = User.objects.filter(username="anna").values("pk")
    return User.objects.filter(AnyOf(F("pk"), Subquery(named))).query


def test_any_of_is_an_array_on_postgresql_and_in_on_sqlite() -> None:
    query = _followed_by_name()
    postgres_sql, _ = query.get_compiler(connection=connections["default"]).as_sql()  # type: ignore[attr-defined]
    sqlite = SQLiteWrapper({**connections["default"].settings_dict, "NAME": ":memory:"}, "sqlite")
    sqlite_sql, _ = query.get_compiler(connection=sqlite).as_sql()  # type: ignore[attr-defined]
    assert '"accounts_user"."id" = ANY(ARRAY(SELECT' in postgres_sql
    assert '"accounts_user"."id" IN (SELECT' in sqlite_sql


def test_any_of_finds_the_rows_of_its_subquery() -> None:
    anna = User.objects.create(username="anna")
    User.objects.create(username="boris")
    named = User.objects.filter(username="anna").values("pk")
    assert list(User.objects.filter(AnyOf(F("pk"), Subquery(named)))) == [anna]
