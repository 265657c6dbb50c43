# The session engine's own table (accounts.sessions): Django's database sessions, each naming
# its user. The sessions signed in so far move into it, so nobody is signed out by the upgrade.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

BATCH = 1000


def _user_id(data: str, users: set[int]) -> int | None:
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    user_id = SessionStore().decode(data).get(SESSION_KEY)
    try:
        return int(user_id) if int(user_id) in users else None
    except (TypeError, ValueError):
        return None


def _move(source: tuple[str, str], target: tuple[str, str], with_user: bool):
    def move(apps, schema_editor):
        old, new = apps.get_model(*source), apps.get_model(*target)
        users = (
            set(apps.get_model("accounts", "User").objects.values_list("pk", flat=True))
            if with_user
            else set()
        )
        alive = old.objects.filter(expire_date__gt=timezone.now())
        rows = []
        for session in alive.iterator(chunk_size=BATCH):
            row = new(
                session_key=session.session_key,
                session_data=session.session_data,
                expire_date=session.expire_date,
            )
            if with_user:
                row.user_id = _user_id(session.session_data, users)
            rows.append(row)
        new.objects.bulk_create(rows, batch_size=BATCH, ignore_conflicts=True)
        old.objects.all().delete()

    return move


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0009_user_games_counters'),
        ('sessions', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='BrowserSession',
            fields=[
                ('session_key', models.CharField(max_length=40, primary_key=True, serialize=False, verbose_name='session key')),
                ('session_data', models.TextField(verbose_name='session data')),
                ('expire_date', models.DateTimeField(db_index=True, verbose_name='expire date')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='browser_sessions', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'session',
                'verbose_name_plural': 'sessions',
                'abstract': False,
            },
        ),
        migrations.RunPython(
            _move(("sessions", "Session"), ("accounts", "BrowserSession"), with_user=True),
            _move(("accounts", "BrowserSession"), ("sessions", "Session"), with_user=False),
        ),
    ]
