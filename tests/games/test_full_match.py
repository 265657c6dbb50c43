"""Complete games through the HTTP API alone: four clients from sign-up to the final score."""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import Match, Rules
from games.models import Game

pytestmark = pytest.mark.django_db

MAX_REQUESTS = 8000


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A short-game policy: take the pile when possible, meld the most cards, then discard."""

    def size(action: dict[str, Any]) -> int:
        cards = len(action.get("cards", []))
        return cards + sum(len(meld["cards"]) for meld in action.get("melds", []))

    for kind in ("take_pile", "meld"):
        options = [action for action in legal if action["type"] == kind]
        if options:
            return max(options, key=size)
    for kind in ("draw", "discard", "undo"):
        options = [action for action in legal if action["type"] == kind]
        if options:
            return options[0]
    raise AssertionError(f"nothing to play in {legal}")


def sign_up(name: str) -> APIClient:
    client = APIClient()
    response = client.post(
        "/api/auth/register/",
        {"username": name, "password": "a-long-secret-9", "email": f"{name}@example.com"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def play_through_the_api(length: str, rules: dict[str, Any]) -> dict[str, Any]:
    clients = [sign_up(f"{length}{rules.get('target', '')}p{seat}") for seat in range(4)]
    created = clients[0].post(
        "/api/games/",
        {"mode": "async", "length": length, "rules": rules, "private": True},
        format="json",
    )
    assert created.status_code == 201, created.json()
    game_id, code = created.json()["id"], created.json()["invite_code"]
    for seat in (1, 2, 3):
        joined = clients[seat].post(
            f"/api/games/{game_id}/join/", {"seat": seat, "invite_code": code}, format="json"
        )
        assert joined.status_code == 200, joined.json()
    game = joined.json()
    assert game["status"] == "active"

    final = play_out(clients, game_id)
    assert {body["status"] for body in final} == {"finished"}
    export = clients[0].get(f"/api/games/{game_id}/export/")
    assert export.status_code == 200
    return {"final": final[0], "export": export.json()}


def play_out(
    clients: list[APIClient],
    game_id: int,
    *,
    policy: Callable[[list[dict[str, Any]]], dict[str, Any]] = choose,
) -> list[dict[str, Any]]:
    """Every move by the seat the game waits for (`turn_seat`), chosen by `policy` among its
    legal actions, until the game is over; each client's last look at the game."""
    game = clients[0].get(f"/api/games/{game_id}/").json()
    for _ in range(MAX_REQUESTS):
        if game["status"] != "active":
            break
        client = clients[game["turn_seat"]]
        game = client.get(f"/api/games/{game_id}/").json()
        assert game["your_turn"] and game["legal_actions"], game["deal"]
        action = policy(game["legal_actions"])
        response = client.post(
            f"/api/games/{game_id}/moves/",
            {"version": game["version"], "action": action},
            format="json",
        )
        assert response.status_code == 200, (action, response.json())
        game = response.json()["game"]
    else:
        raise AssertionError("the game did not end")
    return [client.get(f"/api/games/{game_id}/").json() for client in clients]


def replay(export: dict[str, Any]) -> Match:
    rules = Rules.from_options(export["rules"])
    match = Match.new(rules, first_dealer=export["first_dealer"], seed=int(export["seed"]))
    for move in export["moves"]:
        match.apply(move["seat"], move["action"])
    return match


def test_a_single_deal_from_sign_up_to_the_score():
    played = play_through_the_api("deal", {})
    final, export = played["final"], played["export"]
    assert len(final["deals"]) == 1
    assert final["scores"] == final["deals"][0]["scores_after"]
    assert final["scores"] == [team["total"] for team in final["deals"][0]["result"]]
    assert final["deal"]["phase"] == "over"
    assert final["turn_seat"] is None
    assert final["legal_actions"] == []
    # The export replays to exactly the stored state.
    game = Game.objects.get(pk=final["id"])
    assert replay(export).to_dict() == game.state
    # 128-bit seeds, as decimal strings (exact in JavaScript too).
    assert [deal["seed"] for deal in export["deals"]] == [
        str(h["seed"]) for h in Match.from_dict(game.state).history
    ]
    assert int(export["seed"]) == game.state["seed"] >= 0
    from notifications.models import OutboxMessage

    finished = OutboxMessage.objects.filter(game_id=final["id"], kind="game_finished")
    assert finished.count() == 4


def test_a_match_to_2500_runs_deal_after_deal():
    played = play_through_the_api("match", {"target": 2500})
    final, export = played["final"], played["export"]
    assert max(final["scores"]) >= 2500
    assert final["deals"][-1]["scores_after"] == final["scores"]
    if len(final["deals"]) > 1:
        assert final["last_deal"]["phase"] == "over"
        assert "hand" not in final["last_deal"]
    dealers = [deal["dealer"] for deal in final["deals"]]
    assert dealers == [(dealers[0] + n) % 4 for n in range(len(dealers))]  # R-DEAL-1
    if final["scores"][0] != final["scores"][1]:
        assert final["winner_team"] == (0 if final["scores"][0] > final["scores"][1] else 1)
    game = Game.objects.get(pk=final["id"])
    assert replay(export).to_dict() == game.state
