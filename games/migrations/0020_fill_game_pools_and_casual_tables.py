from typing import Any

from django.db import migrations
from django.db.models import Exists, OuterRef

from games.engine import Rules

GAMES_PER_UPDATE = 5_000


def fill_pools_and_casual_tables(apps: Any, schema_editor: Any) -> None:
    """Each game's rating pool, "{mode}.{game}.{players}" of its rules (a game stored before
    tables had sizes reads as the four-handed game); a game a bot sat at from its start (a bot's
    seat nobody abandoned to it) is casual, as is a table still waiting with a bot seated."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Abandonment = apps.get_model("games", "Abandonment")
    games_of: dict[str, list[int]] = {}
    for game_id, mode, options in Game.objects.values_list("id", "mode", "rules").iterator(
        chunk_size=GAMES_PER_UPDATE
    ):
        rules = Rules.from_options(options)
        games_of.setdefault(f"{mode}.{rules.game}.{rules.players}", []).append(game_id)
    for pool, game_ids in games_of.items():
        for start in range(0, len(game_ids), GAMES_PER_UPDATE):
            Game.objects.filter(pk__in=game_ids[start : start + GAMES_PER_UPDATE]).update(
                pool=pool
            )
    left_to_the_bot = Abandonment.objects.filter(game=OuterRef("game"), seat=OuterRef("seat"))
    bots_from_the_start = Seat.objects.filter(game=OuterRef("pk"), user__bot_level__gt="").exclude(
        Exists(left_to_the_bot)
    )
    Game.objects.filter(Exists(bots_from_the_start)).update(rated=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_game_rated_pool_and_rating_range"),
    ]

    operations = [
        # Backwards there is nothing to undo: reversing 0016 drops the columns.
        migrations.RunPython(fill_pools_and_casual_tables, migrations.RunPython.noop),
    ]
