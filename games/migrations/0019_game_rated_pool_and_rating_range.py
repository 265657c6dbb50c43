from django.db import migrations, models


class Migration(migrations.Migration):
    """Each game's rating pool and whether it is rated, and a table's rating range: the pools
    filled by 0017, the range's constraint added by 0018 (apart, as PostgreSQL alters no table
    with the fill's updates pending in the same transaction)."""

    dependencies = [
        ("accounts", "0009_user_games_counters"),
        ("games", "0018_deal_break_pace_and_autoplayed"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rated",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="game",
            name="pool",
            field=models.CharField(default="", max_length=24),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="game",
            name="rating_max",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="rating_min",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
