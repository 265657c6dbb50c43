"""Username skeletons from the whole of Unicode's confusables data (accounts/names.py), stored
as digests: every account's skeleton is computed again."""

from django.db import migrations


def refill_skeletons(apps, schema_editor):
    """As 0003: the oldest account of each look-alike group keeps the skeleton; later
    look-alikes that already exist stay NULL (still unique) rather than failing the migration."""
    from accounts.names import skeleton

    User = apps.get_model("accounts", "User")
    User.objects.update(username_skeleton=None)
    seen = set()
    for user in User.objects.order_by("pk").only("pk", "username").iterator():
        value = skeleton(user.username)
        if value not in seen:
            seen.add(value)
            User.objects.filter(pk=user.pk).update(username_skeleton=value)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_user_confirm_discard"),
    ]

    operations = [
        migrations.RunPython(refill_skeletons, migrations.RunPython.noop),
    ]
