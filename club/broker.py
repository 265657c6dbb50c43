"""Publishing to the Celery broker without letting a broker outage fail the request.

Tasks are published after commit; the data they act on is already in the database (deadline
columns, the outbox), and periodic beat tasks sweep it, so a lost publish only delays the work.
"""

import logging

from celery import Task
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def publish(task: Task, *, countdown: float = 0, **kwargs: object) -> None:
    """Queue `task`; when the broker is down, log it and rely on the periodic sweep."""
    try:
        task.apply_async(kwargs=kwargs, countdown=countdown)
    except (OperationalError, OSError):
        logger.warning(
            "Broker unavailable, %s not queued; the periodic sweep will do it", task.name
        )
