"""Thin Celery tasks; the work is in notifications.services (which enqueues them after commit)."""

from celery import shared_task

from notifications import services


@shared_task
def drain_outbox() -> int:
    return services.drain_outbox()


@shared_task
def send_daily_digests() -> int:
    return services.send_daily_digests()
