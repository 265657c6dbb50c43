from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_username_skeleton_full_confusables"),
    ]

    # Filled from the games' rows by games 0015.
    operations = [
        migrations.AddField(
            model_name="user",
            name="games_played",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="user",
            name="games_won",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="user",
            name="games_abandoned",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
