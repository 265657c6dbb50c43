from celery import shared_task

from moderation import services


@shared_task(ignore_result=True)
def sweep_report_deadlines() -> None:
    """Every minute (settings.CELERY_BEAT_SCHEDULE): SLA alerts, each sent once."""
    services.sweep_report_deadlines()
