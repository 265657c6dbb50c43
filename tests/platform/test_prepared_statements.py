"""club/prepared.py: PostgreSQL keeps the game store's statements prepared and runs them on a
generic plan once it has made its five custom ones; no other statement is prepared, so the ORM's
are planned for their own values (skew: 1 % of reports are open)."""

import re

import pytest
from django.db import connection, transaction

from games import store
from games.models import Game
from moderation.models import Report
from tests.factories import started_game

pytestmark = pytest.mark.django_db


def _prepared() -> dict[str, tuple[int, int]]:
    """Each statement prepared on this connection, as the store wrote it: (generic plans, custom
    plans)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
        return {
            re.sub(r"\$\d+", "%s", statement): (generic, custom)
            for statement, generic, custom in cursor.fetchall()
        }


def test_the_settings():
    assert connection.settings_dict["OPTIONS"]["server_side_binding"] is True
    assert connection.connection.prepare_threshold is not None  # None: nothing prepared
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == ("auto",)


def test_the_store_s_statements_are_prepared_and_planned_once():
    game = started_game()
    for _ in range(8):
        with transaction.atomic():
            loaded = store.load(game_id=game.pk, for_update=True)
            assert loaded is not None
            store.write(game=loaded.game, moves=[])
        # ORM statements, repeated as often: one the moderators' queue makes, skewed by status.
        assert not Report.objects.filter(status=Report.Status.OPEN).exists()
        assert Game.objects.filter(pk=game.pk, status=Game.Status.ACTIVE).exists()

    prepared = _prepared()
    for statement in (
        store._LOCK_SQL,
        store._load_sql(vendor="postgresql", many=False),
        store._UPDATE_SQL,
    ):
        generic, custom = prepared.pop(statement)
        assert custom <= 5 and generic >= 3, statement
    # Earlier tests on this connection may have prepared more of the store's; never an ORM
    # statement (the ORM quotes every name, the store none).
    assert not [statement for statement in prepared if '"' in statement]
