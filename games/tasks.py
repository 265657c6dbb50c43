"""Thin Celery tasks for the club's clock; the work is in games.timeouts."""

from celery import shared_task

from games import timeouts


@shared_task
def sweep_deadlines() -> int:
    return timeouts.sweep_until_done()
