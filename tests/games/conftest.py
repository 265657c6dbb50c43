from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from games.models import Game
from tests.factories import UserFactory, started_game


@pytest.fixture
def players(db: None) -> list[User]:
    return UserFactory.create_batch(4)


@pytest.fixture
def game(players: list[User]) -> Game:
    return started_game(players=players)


@pytest.fixture
def client_for() -> Callable[[User], APIClient]:
    def make(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


def post_move(
    client: APIClient,
    game_id: int,
    version: int,
    action: dict[str, Any],
    headers: dict[str, str] | None = None,
) -> Any:
    return client.post(
        f"/api/games/{game_id}/moves/",
        {"version": version, "action": action},
        format="json",
        headers=headers,
    )


def key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}
