"""Idempotency-Key answers keep their domain outcome (refused or made), not an HTTP status:
the API derives the status from it (400 for a refusal, 200 for a move made)."""

from django.db import migrations, models


def status_to_refused(apps, schema_editor):
    stored = apps.get_model("games", "IdempotentResponse")
    stored.objects.filter(status_code__gte=400).update(refused=True)


def refused_to_status(apps, schema_editor):
    stored = apps.get_model("games", "IdempotentResponse")
    stored.objects.filter(refused=True).update(status_code=400)
    stored.objects.filter(refused=False).update(status_code=200)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_seat_left_table_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotentresponse",
            name="refused",
            field=models.BooleanField(default=False),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="idempotentresponse",
            name="status_code",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.RunPython(status_to_refused, refused_to_status),
        migrations.RemoveField(model_name="idempotentresponse", name="status_code"),
    ]
