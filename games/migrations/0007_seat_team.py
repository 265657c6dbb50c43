from django.db import migrations, models


class Migration(migrations.Migration):
    """Each seat's team, as a column: empty here, filled by 0008, required from 0009 on."""

    dependencies = [
        ("games", "0006_seats_of_every_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="team",
            field=models.PositiveSmallIntegerField(null=True),
        ),
    ]
