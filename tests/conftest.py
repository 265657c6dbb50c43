from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import override_settings
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient

from club import clock
from club.cache import DegradingRedisCache

# Properties judge behaviour, not speed: on a shared two-core machine (and CI) an example may
# take longer than hypothesis' default 200 ms deadline without anything being wrong.
settings.register_profile("club", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("club")


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture(autouse=True)
def club_clock() -> Iterator[None]:
    """Every test starts on the database's own time; tests move it with clock.advance()."""
    clock.reset()
    yield
    clock.reset()


@pytest.fixture(autouse=True)
def drain_publisher(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's first drain is published at once, whatever earlier tests in the process did."""
    from notifications.services import publisher

    fresh = publisher.DrainPublisher(interval=publisher.DRAIN_PUBLISH_INTERVAL)
    monkeypatch.setattr(publisher, "_publish_drain", fresh)


@pytest.fixture
def redis_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[DegradingRedisCache]:
    """The shared cache on this worker's Redis database (the tests' default is local memory),
    emptied before and after."""
    monkeypatch.setattr(DegradingRedisCache, "_skip_until", 0.0)
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "club.cache.DegradingRedisCache",
                "LOCATION": django_settings.CELERY_BROKER_URL,
                "KEY_PREFIX": "test-redis-cache",
            }
        }
    ):
        cache = caches["default"]
        assert isinstance(cache, DegradingRedisCache)
        cache.clear()
        yield cache
        cache.clear()
