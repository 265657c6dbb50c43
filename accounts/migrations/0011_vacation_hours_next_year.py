# A vacation's hours are charged to the year each one starts in (games.services.time_off): the row keeps
# the next year's too. Vacations booked before, running or booked across 31 December, were
# charged wholly to the year they were booked in: their next year's hours move there.

import math
from datetime import UTC, datetime, timedelta

from django.db import migrations, models
from django.utils import timezone

HOUR = timedelta(hours=1)


def charge_next_years_hours_to_it(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    now = timezone.now()
    year = now.astimezone(UTC).year
    new_year = datetime(year + 1, 1, 1, tzinfo=UTC)
    booked = User.objects.filter(
        vacation_auto=False,
        vacation_year=year,
        vacation_until__gt=new_year,
        vacation_start__isnull=False,
    )
    year_after = datetime(year + 2, 1, 1, tzinfo=UTC)

    def hours_starting_before(start: datetime, moment: datetime) -> int:
        return max(0, math.ceil((moment - start) / HOUR))

    for user in booked:
        start, until = user.vacation_start, user.vacation_until
        total = math.ceil((until - start) / HOUR)
        # The hours starting next year (those of the year after stay where they were charged).
        next_year = min(total, hours_starting_before(start, year_after)) - hours_starting_before(
            start, new_year
        )
        hours = min(user.vacation_hours_used, next_year)
        user.vacation_hours_used -= hours
        user.vacation_hours_next_year = hours
        user.save(update_fields=["vacation_hours_used", "vacation_hours_next_year"])


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0010_browser_sessions'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='vacation_hours_next_year',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(charge_next_years_hours_to_it, migrations.RunPython.noop),
    ]
