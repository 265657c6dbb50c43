"""GET /api/health/: database, broker, cache and the oldest overdue deadline; 200 or 503."""

from datetime import timedelta

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from club import clock
from notifications.services import drain_outbox
from tests.factories import started_game

pytestmark = pytest.mark.django_db


def test_healthy_without_authentication():
    response = APIClient().get("/api/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["database"]["ok"] and body["broker"]["ok"]
    assert body["backlog"]["oldest_overdue_deadline_seconds"] == 0


def test_an_old_overdue_deadline_means_nobody_is_sweeping():
    started_game()
    drain_outbox()
    clock.advance(timedelta(hours=24, seconds=30))
    body = APIClient().get("/api/health/").json()
    assert body["ok"] is True
    assert body["backlog"]["oldest_overdue_deadline_seconds"] == pytest.approx(30, abs=2)
    clock.advance(timedelta(minutes=5))
    response = APIClient().get("/api/health/")
    assert response.status_code == 503
    assert response.json()["backlog"]["ok"] is False


@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0")
def test_broker_down_is_a_503():
    response = APIClient().get("/api/health/")
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False
    assert response.json()["database"]["ok"] is True


@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0")
def test_the_public_answer_never_shows_a_failure_text_with_hosts_and_ports(caplog):
    response = APIClient().get("/api/health/")

    assert response.json()["broker"] == {"ok": False, "kind": "redis"}
    assert "127.0.0.1" not in response.content.decode()
    assert "127.0.0.1" in caplog.text  # the operator still finds it in the log
