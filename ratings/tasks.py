"""Thin Celery tasks; the work is in ratings.services."""

from celery import shared_task

from ratings import services


@shared_task
def refresh_leaderboards() -> list[str]:
    return services.refresh_leaderboards()
