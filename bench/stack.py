"""What the benches share: a PostgreSQL database of their own, migrated, with Django set up."""

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


def _drop(database: str) -> None:
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


@contextmanager
def bench_database(
    database: str, *, env: dict[str, str] | None = None, keep: bool = False
) -> Iterator[dict[str, str]]:
    """A fresh `database` (a leftover of the same name goes first), migrated, with Django set up
    in this process on `env` (over the bench defaults); yields the environment for the servers the
    bench starts. The database is dropped afterwards, even when migrating failed, unless `keep`."""
    full_env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-not-a-secret"),
        "DEBUG": "false",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        # A bench measures the club, not its per-caller throttles.
        "API_RATE_USER": os.environ.get("API_RATE_USER", "1000000/min"),
        "API_RATE_ANON": os.environ.get("API_RATE_ANON", "1000000/min"),
        **(env or {}),
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
    }
    _drop(database)
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{database}"')
    try:
        os.environ.update(full_env)
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        yield full_env
    finally:
        from django.conf import settings
        from django.db import connections

        if settings.configured:
            connections.close_all()
        if not keep:
            _drop(database)
