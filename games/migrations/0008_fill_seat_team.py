import json
from typing import Any

from django.db import migrations

from games.engine import Rules
from games.engine.seating import Seating

GAMES_PER_UPDATE = 5_000


def fill_teams(apps: Any, schema_editor: Any) -> None:
    """Every seat's team from the engine's seating of its game's rules (`Rules.from_options`:
    a game stored before tables had sizes has no `players` or `teams` and reads as the
    four-handed game), one UPDATE per seat number and batch of games of one seating."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    seating_of_rules: dict[str, Seating] = {}
    games_of: dict[Seating, list[int]] = {}
    for game_id, options in Game.objects.values_list("id", "rules").iterator(
        chunk_size=GAMES_PER_UPDATE
    ):
        key = json.dumps(options, sort_keys=True)
        if key not in seating_of_rules:
            seating_of_rules[key] = Rules.from_options(options).seating
        games_of.setdefault(seating_of_rules[key], []).append(game_id)
    for seating, game_ids in games_of.items():
        for start in range(0, len(game_ids), GAMES_PER_UPDATE):
            batch = game_ids[start : start + GAMES_PER_UPDATE]
            for seat in seating.seats:
                Seat.objects.filter(game_id__in=batch, seat=seat).update(
                    team=seating.team_of(seat)
                )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_seat_team"),
    ]

    operations = [
        # Backwards there is nothing to undo: reversing 0007 drops the column.
        migrations.RunPython(fill_teams, migrations.RunPython.noop),
    ]
