from tests.timing.conftest import celery_worker

__all__ = ["celery_worker"]
