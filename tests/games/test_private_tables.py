"""Private tables: seen only by their creator, their players and, while they wait, invite code
holders; to anybody else the same 404 as a missing game, on every endpoint (issue #11,
finding 9: join, heartbeat, afterwords and reports told it existed)."""

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import GameFactory, SeatFactory, UserFactory, started_game
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
    # Without its code a private table does not exist for a stranger (below).
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_public_games_stay_visible_to_everyone(client_for, game):
    assert client_for(UserFactory.create()).get(f"/api/games/{game.pk}/").status_code == 200


MISSING = 2**62


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _answers(client: APIClient, game_id: int) -> dict[str, tuple[int, dict]]:
    calls = {
        "detail": lambda: client.get(f"/api/games/{game_id}/"),
        "moves": lambda: client.get(f"/api/games/{game_id}/moves/"),
        "export": lambda: client.get(f"/api/games/{game_id}/export/"),
        "join": lambda: client.post(f"/api/games/{game_id}/join/", {"seat": 3}, format="json"),
        "join_bad_code": lambda: client.post(
            f"/api/games/{game_id}/join/", {"seat": 3, "invite_code": "guess"}, format="json"
        ),
        "leave": lambda: client.post(f"/api/games/{game_id}/leave/"),
        "heartbeat": lambda: client.post(f"/api/games/{game_id}/heartbeat/"),
        "move": lambda: client.post(
            f"/api/games/{game_id}/moves/",
            {"version": 0, "action": {"type": "draw"}},
            format="json",
        ),
        "afterwords": lambda: client.get(f"/api/games/{game_id}/afterwords/"),
        "afterword": lambda: client.post(
            f"/api/games/{game_id}/afterwords/", {"to": "table", "text": "gg"}, format="json"
        ),
        "report": lambda: client.post(
            "/api/reports/",
            {"game": game_id, "accused": 1, "reason": "rude", "text": ""},
            format="json",
        ),
    }
    answers = {}
    for name, call in calls.items():
        response = call()
        answers[name] = (response.status_code, response.json().get("code"))
    return answers


def _private(status: str) -> Game:
    if status == Game.Status.ACTIVE:
        game = started_game()
        Game.objects.filter(pk=game.pk).update(private=True, invite_code="sesame")
        return game
    game = GameFactory.create(private=True, invite_code="sesame", status=status)
    for seat in range(2 if status == Game.Status.WAITING else 4):
        SeatFactory.create(game=game, user=UserFactory.create(), seat=seat)
    return game


@pytest.mark.parametrize("status", [Game.Status.WAITING, Game.Status.ACTIVE, Game.Status.FINISHED])
def test_an_outsider_cannot_tell_a_private_table_from_a_missing_one(status):
    game = _private(status)
    outsider = _client(UserFactory.create())

    seen = _answers(outsider, game.pk)
    missing = _answers(outsider, MISSING)

    assert seen == missing
    assert {answer for name, answer in seen.items() if name != "report"} == {(404, "not_found")}
    assert Game.objects.get(pk=game.pk).seats.count() == (2 if status == "waiting" else 4)


def test_with_the_code_a_waiting_private_table_is_joined():
    game = _private(Game.Status.WAITING)

    response = _client(UserFactory.create()).post(
        f"/api/games/{game.pk}/join/", {"seat": 3, "invite_code": "sesame"}, format="json"
    )

    assert response.status_code == 200


def test_a_public_table_still_says_why():
    game = started_game()
    outsider = _client(UserFactory.create())

    assert (
        outsider.post(f"/api/games/{game.pk}/join/", {"seat": 3}, format="json").json()["code"]
        == "game_not_waiting"
    )
    assert outsider.post(f"/api/games/{game.pk}/heartbeat/").json()["code"] == "not_seated"
