"""/api-auth/login/ (the browsable API's session log-in); its failed log-in limits are those of
every password check (tests/accounts/test_login_limits.py)."""

import pytest
from django.test import Client

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
LOGIN = "/api-auth/login/"


def test_the_login_page_is_served():
    assert Client().get(LOGIN).status_code == 200


def test_a_successful_log_in_redirects_and_sets_the_session():
    user = UserFactory()
    client = Client()

    response = client.post(LOGIN, {"username": user.username, "password": DEFAULT_PASSWORD})

    assert response.status_code == 302
    assert client.get("/api/me/").json()["username"] == user.username


def test_unlimited_when_the_limits_are_off():
    user = UserFactory()

    codes = {
        Client().post(LOGIN, {"username": user.username, "password": "wrong"}).status_code
        for _ in range(15)
    }

    assert codes == {200}
