"""What moderation's OpenAPI schema promises: who may call, which errors, the kudos outcome."""

from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema() -> dict[str, Any]:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize(
    "path", ["/api/afterwords/phrases/", "/api/reports/mine/", "/api/sanctions/mine/"]
)
def test_player_reads_document_their_401(schema: dict[str, Any], path: str) -> None:
    operation = schema["paths"][path]["get"]

    assert set(operation["responses"]) == {"200", "401"}
    assert {} not in operation["security"]
    assert APIClient().get(path).status_code == 401


def test_the_club_mood_is_public(schema: dict[str, Any]) -> None:
    operation = schema["paths"]["/api/club/mood/"]["get"]

    assert operation["security"] == [{}]
    assert set(operation["responses"]) == {"200", "429"}
    assert APIClient().get("/api/club/mood/").status_code == 200


def test_the_afterword_answer_documents_the_kudos(schema: dict[str, Any]) -> None:
    created = schema["paths"]["/api/games/{game_id}/afterwords/"]["post"]["responses"]["201"]
    ref = created["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    kudos = schema["components"]["schemas"][ref]["properties"]["kudos"]

    assert kudos["nullable"] is True
    assert kudos["allOf"] == [{"$ref": "#/components/schemas/Kudos"}]
    assert set(schema["components"]["schemas"]["Kudos"]["properties"]) == {
        "counted",
        "reason",
        "message",
    }
