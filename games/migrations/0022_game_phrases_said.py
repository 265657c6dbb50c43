from typing import Any

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery


def count_phrases_said(apps: Any, schema_editor: Any) -> None:
    """The games whose tables have phrases: their count (the rest stay at 0)."""
    Game = apps.get_model("games", "Game")
    TablePhrase = apps.get_model("games", "TablePhrase")
    said = (
        TablePhrase.objects.filter(game=OuterRef("pk"))
        .order_by()
        .values("game")
        .annotate(count=Count("pk"))
        .values("count")
    )
    Game.objects.filter(phrases__isnull=False).distinct().update(phrases_said=Subquery(said))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_game_rating_range_constraint"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="phrases_said",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_phrases_said, migrations.RunPython.noop, elidable=True),
    ]
