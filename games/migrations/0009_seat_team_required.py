from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_fill_seat_team"),
    ]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="team",
            field=models.PositiveSmallIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(("team__lte", 2)), name="seat_team_in_table"
            ),
        ),
    ]
