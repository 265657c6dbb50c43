import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """A player's seats by the index `seat_of_user`, whose first column is the user: the
    foreign key's own index on the user goes. Only that index is dropped (AlterField would
    drop and re-add the foreign key, checking every seat again under a lock)."""

    dependencies = [
        ("games", "0009_seat_team_required"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["user", "game", "seat", "team"], name="seat_of_user"),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="seat",
                    name="user",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    'DROP INDEX IF EXISTS "games_seat_user_id_9fbc01bf"',
                    'CREATE INDEX "games_seat_user_id_9fbc01bf" ON "games_seat" ("user_id")',
                ),
            ],
        ),
    ]
