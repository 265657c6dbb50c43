from celery import shared_task

from moderation import services


@shared_task(ignore_result=True)
def sweep_report_deadlines() -> None:
    """Every minute (django-celery-beat, see the 0002 migration): SLA alerts, each sent once."""
    services.sweep_report_deadlines()
