from typing import Any

from django.db import migrations
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

OVER_STATUSES = ("finished", "abandoned")


def fill_counters(apps: Any, schema_editor: Any) -> None:
    """Every player's games counters from the rows, as the player card counted them before the
    counters: played, the seats kept to the end of games over and the games left to a bot
    (`Abandonment`); won, those seats on the winning team; abandoned, the seats that ended their
    game abandoned and the games left to a bot. One UPDATE of every user."""
    User = apps.get_model("accounts", "User")
    Seat = apps.get_model("games", "Seat")
    Abandonment = apps.get_model("games", "Abandonment")

    def count(rows: QuerySet[Any]) -> Coalesce:
        counted = rows.order_by().values("user").annotate(n=Count("pk")).values("n")
        return Coalesce(Subquery(counted), 0)

    kept = Seat.objects.filter(user=OuterRef("pk"), game__status__in=OVER_STATUSES)
    left = Abandonment.objects.filter(user=OuterRef("pk"))
    User.objects.update(
        games_played=count(kept) + count(left),
        games_won=count(kept.filter(game__winner_team=F("team"))),
        games_abandoned=count(kept.filter(game__abandoned_by_seat=F("seat"))) + count(left),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_user_games_counters"),
        ("games", "0014_idempotent_response_refused"),
    ]

    operations = [
        # Backwards there is nothing to undo: reversing accounts 0009 drops the columns.
        migrations.RunPython(fill_counters, migrations.RunPython.noop),
    ]
