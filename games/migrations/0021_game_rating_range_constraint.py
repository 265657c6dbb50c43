import django.db.models.expressions
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_fill_game_pools_and_casual_tables"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("rating_max__isnull", True), ("rating_min__isnull", True)),
                    models.Q(
                        ("rated", True),
                        ("rating_max__isnull", False),
                        ("rating_min__isnull", False),
                        ("rating_min__lte", django.db.models.expressions.F("rating_max")),
                    ),
                    _connector="OR",
                ),
                name="game_rating_range",
            ),
        ),
    ]
