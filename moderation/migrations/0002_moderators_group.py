"""The "Moderators" group with moderation's permissions.

The reporter-identity permission (moderation.view_reporter_identity) is deliberately NOT given to
the group: admins grant it person by person.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

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


def backwards(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
