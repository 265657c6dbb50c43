"""Thin Celery tasks; the work is in tournaments.services."""

from celery import shared_task

from tournaments import services


@shared_task
def sweep_tournaments() -> int:
    return services.sweep_tournaments()
