"""The OpenAPI schema of the game view, the lobby and the export."""

import pytest
from rest_framework.test import APIClient

from games import services
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema() -> dict:
    client = APIClient()
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def _component(schema: dict, ref_holder: dict) -> dict:
    ref = ref_holder.get("$ref") or next(
        item["$ref"]
        for item in ref_holder.get("allOf", ref_holder.get("oneOf", []))
        if "$ref" in item
    )
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


def test_the_game_view_is_described(schema):
    detail = schema["components"]["schemas"]["GameDetail"]["properties"]
    deal = _component(schema, detail["deal"])
    assert {"seat", "phase", "hand", "hand_counts", "stock_count", "pile", "teams"} <= set(
        deal["properties"]
    )
    assert "hand" not in deal["required"]  # spectators get none
    action = _component(schema, detail["legal_actions"]["items"])
    assert {"type", "card", "cards", "melds"} <= set(action["properties"])
    entry = schema["components"]["schemas"]["MoveEntry"]["properties"]
    assert {"type", "seat", "deal_over"} <= set(_component(schema, entry["public"])["properties"])
    assert "cards" in _component(schema, entry["private"])["properties"]


def test_the_lobby_status_parameter_is_an_enum(schema, client_for):
    parameters = schema["paths"]["/api/games/"]["get"]["parameters"]
    status_parameter = next(p for p in parameters if p["name"] == "status")
    assert status_parameter["schema"]["enum"] == ["waiting", "active", "finished", "abandoned"]
    user = UserFactory.create()
    client = client_for(user)
    services.open_table(user=user, mode="live", length="deal", rules={}, private=False)
    started_game()
    # Empty optional parameters are treated as absent, like any other optional parameter.
    everything = client.get("/api/games/").json()
    assert everything["count"] == 2
    assert client.get("/api/games/?status=&mine=").json() == everything
    assert client.get("/api/games/?status=waiting").json()["count"] == 1
    assert client.get("/api/games/?status=nope").status_code == 400


def test_the_export_documents_seeds_as_strings(schema):
    export = schema["components"]["schemas"]["Export"]["properties"]
    assert export["seed"]["type"] == "string"


def test_why_a_player_is_away_is_documented(schema):
    components = schema["components"]["schemas"]
    player = components["Player"]["properties"]
    assert {"away_until", "away_reason"} <= set(player)
    reason = player["away_reason"]
    choices = reason.get("enum") or _component(schema, reason)["enum"]
    assert {"vacation", "day_off"} <= set(choices)
    assert "away_reason" in components["PublicUser"]["properties"]
