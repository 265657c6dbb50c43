"""The API's content negotiation (club.api.ContentNegotiation) chooses what DRF's would, though
it keeps its choice per Accept header."""

import pytest
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from club.api import ContentNegotiation, JSONRenderer
from club.content_security import BrowsableAPIRenderer
from tests.factories import UserFactory

ACCEPT_HEADERS = [
    None,
    "*/*",
    "application/json",
    "application/json; indent=4",
    "text/html",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "application/json;q=0.5, text/html",
    "text/*",
    "image/png",
]


def _request(accept: str | None, query: str = "") -> Request:
    factory = APIRequestFactory()
    path = f"/api/games/{query}"
    return Request(factory.get(path) if accept is None else factory.get(path, HTTP_ACCEPT=accept))


def _choice(negotiator, request: Request) -> tuple[type, str] | str:
    renderers = [JSONRenderer(), BrowsableAPIRenderer()]
    try:
        renderer, media_type = negotiator.select_renderer(request, renderers)
    except NotAcceptable:
        return "406"
    return type(renderer), media_type


@pytest.mark.parametrize("accept", ACCEPT_HEADERS)
@pytest.mark.parametrize("query", ["", "?format=api", "?format=json"])
def test_the_choice_is_drfs_the_first_time_and_after(accept, query) -> None:
    drfs = _choice(DefaultContentNegotiation(), _request(accept, query))
    for _ in range(2):  # the second from what the first kept
        assert _choice(ContentNegotiation(), _request(accept, query)) == drfs


@pytest.mark.django_db
def test_an_unacceptable_answer_is_406_every_time(api_client) -> None:
    api_client.force_authenticate(UserFactory())

    for _ in range(2):
        assert api_client.get("/api/games/", HTTP_ACCEPT="image/png").status_code == 406
    assert api_client.get("/api/games/", HTTP_ACCEPT="text/html")["Content-Type"].startswith(
        "text/html"
    )
    assert api_client.get("/api/games/", HTTP_ACCEPT="*/*")["Content-Type"] == "application/json"
