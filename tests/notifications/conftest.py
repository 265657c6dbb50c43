from tests.timing.conftest import celery_worker, club_clock

__all__ = ["celery_worker", "club_clock"]
