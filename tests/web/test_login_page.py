"""The pages' log-in (issue 22, point 5): the form for a signed-in browser too, a new session
on every log-in, and the failed log-in limit said in the page's language with a 429."""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LIMITS = {
    "address_failures": 3,
    "account_failures": 3,
    "window_seconds": 900,
    "backoff_max_seconds": 60,
    "known_address_days": 30,
}


def test_a_signed_in_browser_gets_the_form() -> None:
    client = Client()
    client.force_login(UserFactory.create())
    answer = client.get("/login/")
    assert answer.status_code == 200
    assert 'name="password"' in answer.content.decode()


def test_logging_in_over_a_planted_session_starts_the_owners_own() -> None:
    attacker, owner = UserFactory.create(), UserFactory.create()
    client = Client()
    client.force_login(attacker)  # a session cookie somebody set on the domain
    planted = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.session["planted"] = "data"

    answer = client.post("/login/", {"username": owner.username, "password": DEFAULT_PASSWORD})

    assert answer.status_code == 302
    fresh = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert fresh != planted
    assert client.session["_auth_user_id"] == str(owner.pk)
    assert "planted" not in client.session
    assert Client(cookies={settings.SESSION_COOKIE_NAME: planted}).get("/profile/").status_code


def test_logging_in_again_as_the_same_user_rotates_the_session_key() -> None:
    user = UserFactory.create()
    client = Client()
    client.post("/login/", {"username": user.username, "password": DEFAULT_PASSWORD})
    first = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.post("/login/", {"username": user.username, "password": DEFAULT_PASSWORD})
    assert client.cookies[settings.SESSION_COOKIE_NAME].value != first
    assert client.get("/profile/").status_code == 200


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Too many failed log-in attempts"),
        ("ru", "Слишком много неудачных попыток входа"),
    ],
)
def test_the_failed_log_in_limit_is_429_in_the_pages_language(language: str, said: str) -> None:
    user = UserFactory.create()
    cache.clear()
    client = Client(REMOTE_ADDR="10.9.0.1")
    client.cookies["language"] = language
    form = {"username": user.username, "password": "wrong"}
    with override_settings(LOGIN_LIMITS=LIMITS):
        codes = [client.post("/login/", form).status_code for _ in range(3)]
        refused = client.post("/login/", {**form, "password": DEFAULT_PASSWORD})
    cache.clear()
    assert codes == [200, 200, 200]
    assert refused.status_code == 429
    page = refused.content.decode()
    assert f'<html lang="{language}">' in page
    assert said in page
    assert "_auth_user_id" not in client.session


def test_the_limit_speaks_a_signed_in_english_players_language() -> None:
    reader, target = UserFactory.create(language="en"), UserFactory.create()
    cache.clear()
    client = Client(REMOTE_ADDR="10.9.0.2")
    client.force_login(reader)
    form = {"username": target.username, "password": "wrong"}
    with override_settings(LOGIN_LIMITS=LIMITS):
        for _ in range(3):
            client.post("/login/", form)
        refused = client.post("/login/", form)
    cache.clear()
    assert refused.status_code == 429
    assert "Too many failed log-in attempts" in refused.content.decode()
