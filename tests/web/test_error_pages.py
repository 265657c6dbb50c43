"""A person who meets an error on a page sees a page; programs on the API's paths keep JSON."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_unknown_page_is_a_page_in_the_club_layout() -> None:
    # In the pages' language (Russian unless picked), not the browser's Accept-Language.
    answer = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="en")

    assert answer.status_code == 404
    assert answer["Content-Type"].startswith("text/html")
    html = answer.content.decode()
    assert "Не найдено" in html and 'href="/"' in html
    assert '<html lang="ru">' in html and 'value="en"' in html


def test_a_page_form_without_its_csrf_token_explains_itself_and_the_api_stays_json() -> None:
    client = Client(enforce_csrf_checks=True)

    client.cookies["language"] = "en"
    page = client.post("/login/", {"username": "olga", "password": "x"})
    api = client.post("/api-auth/login/", {"username": "olga", "password": "x"})

    assert page.status_code == 403
    assert page["Content-Type"].startswith("text/html")
    assert 'role="alert"' in page.content.decode()
    assert "Reload the page" in page.content.decode()
    assert (api.status_code, api.json()["code"]) == (403, "csrf_failed")


def test_unknown_api_paths_stay_json() -> None:
    answer = Client().get("/api/no-such-thing/")

    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")


def test_a_server_error_on_a_page_is_plain_html_and_on_the_api_json(rf) -> None:
    from web import errors

    page = errors.server_error(rf.get("/games/1/"))
    api = errors.server_error(rf.get("/api/games/1/"))

    assert page.status_code == api.status_code == 500
    assert page["Content-Type"].startswith("text/html")
    assert api["Content-Type"] == "application/json"
