"""A player's hand is never stored by a shared cache (issue #11, finding 11)."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import issue_token
from tests.factories import started_game

pytestmark = pytest.mark.django_db


def _vary(response) -> set[str]:
    return {part.strip().lower() for part in response.get("Vary", "").split(",")}


def test_a_game_read_with_a_token_is_private_and_varies_on_the_credentials():
    game = started_game()
    player = game.seats.get(seat=0).user
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(user=player)}")

    for path in (f"/api/games/{game.pk}/", f"/api/games/{game.pk}/moves/", "/api/me/"):
        response = client.get(path)
        assert response.status_code == 200
        assert "private" in response["Cache-Control"]
        assert {"authorization", "cookie"} <= _vary(response)


def test_a_session_read_is_private_too():
    game = started_game()
    client = Client()
    client.force_login(game.seats.get(seat=0).user)

    response = client.get(f"/api/games/{game.pk}/")

    assert "private" in response["Cache-Control"]


def test_public_answers_stay_cacheable():
    response = APIClient().get("/api/club/mood/")

    assert "private" not in response.get("Cache-Control", "")
