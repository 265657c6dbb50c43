"""Private tables: seen only by their creator, their players and, while they wait, invite code
holders; 404 to anybody else."""

import pytest

from games import services
from games.models import Game
from tests.factories import UserFactory
from tests.games.conftest import post_move

pytestmark = pytest.mark.django_db


def _private_started_game(players) -> Game:
    game = services.open_table(user=players[0], mode="async", length="deal", rules={}, private=True)
    for seat, player in enumerate(players[1:], start=1):
        services.join_table(game_id=game.pk, user=player, seat=seat, invite_code=game.invite_code)
    return Game.objects.get(pk=game.pk)


def test_a_private_game_is_404_to_strangers(client_for, players):
    game = _private_started_game(players)
    stranger = client_for(UserFactory.create())
    for path in ("", "moves/", "export/"):
        response = stranger.get(f"/api/games/{game.pk}/{path}")
        assert response.status_code == 404, path
        assert response.json()["code"] == "not_found"
    # Even with the code: once the game runs, only its players see it.
    assert (
        stranger.get(f"/api/games/{game.pk}/", {"invite_code": game.invite_code}).status_code == 404
    )
    assert post_move(stranger, game.pk, 0, {"type": "draw"}).status_code == 404
    for player in players:
        assert client_for(player).get(f"/api/games/{game.pk}/").status_code == 200
        assert client_for(player).get(f"/api/games/{game.pk}/moves/").status_code == 200


def test_a_waiting_private_table_shows_to_its_creator_and_code_holders(client_for):
    creator, stranger = UserFactory.create_batch(2)
    game = services.open_table(user=creator, mode="live", length="deal", rules={}, private=True)
    client = client_for(stranger)
    assert client.get(f"/api/games/{game.pk}/").status_code == 404
    assert client.get(f"/api/games/{game.pk}/", {"invite_code": "wrong"}).status_code == 404
    assert client.get(f"/api/games/{game.pk}/", {"invite_code": "ключ"}).status_code == 404
    assert (
        client.get(f"/api/games/{game.pk}/", {"invite_code": game.invite_code}).status_code == 200
    )
    assert client_for(creator).get(f"/api/games/{game.pk}/").status_code == 200
    lobby = client.get("/api/games/", {"status": "waiting"}).json()
    assert game.pk not in [row["id"] for row in lobby["results"]]


def test_a_non_ascii_invite_code_is_refused_not_a_500(client_for):
    game = services.open_table(
        user=UserFactory.create(), mode="live", length="deal", rules={}, private=True
    )
    response = client_for(UserFactory.create()).post(
        f"/api/games/{game.pk}/join/", {"seat": 1, "invite_code": "ключ"}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "bad_invite_code"


def test_public_games_stay_visible_to_everyone(client_for, game):
    assert client_for(UserFactory.create()).get(f"/api/games/{game.pk}/").status_code == 200
