"""/api-auth/login/ (the browsable API's session log-in): failed attempts are throttled per
username and address, like the token endpoint's scope."""

import pytest
from django.core.cache import cache
from django.test import Client

from canasta_club.session_login import FailedLoginRate
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
LOGIN = "/api-auth/login/"


@pytest.fixture
def three_failures_an_hour(monkeypatch):
    # DRF reads the rates once, at import; the test settings switch every scope off.
    monkeypatch.setattr(FailedLoginRate, "THROTTLE_RATES", {"session_login": "3/hour"})
    cache.clear()
    yield
    cache.clear()


def _log_in(username, password, address="10.0.0.1"):
    response = Client().post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address
    )
    return response.status_code


def test_the_login_page_is_served():
    assert Client().get(LOGIN).status_code == 200


@pytest.mark.usefixtures("three_failures_an_hour")
def test_failed_log_ins_are_throttled_per_username_and_address():
    user = UserFactory()

    codes = [_log_in(user.username, "wrong-password") for _ in range(4)]

    assert codes == [200, 200, 200, 429]
    # Throttled even with the right password, until the window ends...
    assert _log_in(user.username, DEFAULT_PASSWORD) == 429
    # ...but only for this username from this address.
    assert _log_in(user.username, DEFAULT_PASSWORD, address="10.0.0.2") == 302
    assert _log_in("somebody-else", "wrong-password") == 200


@pytest.mark.usefixtures("three_failures_an_hour")
def test_a_successful_log_in_redirects_and_sets_the_session():
    user = UserFactory()
    client = Client()

    response = client.post(LOGIN, {"username": user.username, "password": DEFAULT_PASSWORD})

    assert response.status_code == 302
    assert client.get("/api/me/").json()["username"] == user.username


def test_unthrottled_when_the_scope_has_no_rate():
    user = UserFactory()

    assert {_log_in(user.username, "wrong-password") for _ in range(15)} == {200}
