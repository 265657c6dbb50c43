"""Thin Celery tasks for the club's clock; the work is in games.services (its timeouts too)."""

from celery import shared_task

from games import services
from games.services import timeouts


@shared_task
def sweep_deadlines() -> int:
    return timeouts.sweep_until_done()


@shared_task
def sweep_turn_reminders() -> int:
    return timeouts.sweep_turn_reminders()


@shared_task
def lapse_invitations() -> int:
    return services.lapse_invitations()


@shared_task
def purge_idempotency_keys() -> int:
    return services.purge_idempotency_keys()
