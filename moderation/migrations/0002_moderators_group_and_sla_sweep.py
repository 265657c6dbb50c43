"""The "Moderators" group with moderation's permissions, and the minute-by-minute SLA sweep.

The reporter-identity permission (moderation.view_reporter_identity) is deliberately NOT given to
the group: admins grant it person by person.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.utils import timezone

GROUP = "Moderators"
GROUP_PERMISSIONS = [
    "view_report",
    "change_report",
    "view_afterword",
    "view_authoritychange",
    "view_sanction",
    "view_moderationauditentry",
    "view_moderatorshift",
    "change_moderatorshift",
]
SWEEP_NAME = "moderation: report SLA sweep"
SWEEP_TASK = "moderation.tasks.sweep_report_deadlines"


def forwards(apps, schema_editor):
    # Permissions are normally created after migrate; the group needs them now.
    app_config = apps.get_app_config("moderation")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="moderation", codename__in=GROUP_PERMISSIONS
        )
    )

    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = IntervalSchedule.objects.get_or_create(every=1, period="minutes")
    PeriodicTask.objects.update_or_create(
        name=SWEEP_NAME, defaults={"task": SWEEP_TASK, "interval": every_minute, "enabled": True}
    )
    # A running beat reloads its schedule when this marker moves.
    apps.get_model("django_celery_beat", "PeriodicTasks").objects.update_or_create(
        ident=1, defaults={"last_update": timezone.now()}
    )


def backwards(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=SWEEP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
