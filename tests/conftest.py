from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient

from canasta_club import clock

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
    from notifications import services

    fresh = services.DrainPublisher(interval=services.DRAIN_PUBLISH_INTERVAL)
    monkeypatch.setattr(services, "_publish_drain", fresh)
