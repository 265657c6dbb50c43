"""The games API's real answers, checked against the OpenAPI schema the club serves (issue 34,
point 4): whole games of the classic game, Samba and Bolivia played through the API, every answer
validated, with no key the schema leaves out. The schema documents bodies the selectors build, so
this is what keeps the two from drifting apart."""

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import jsonschema
import pytest
from jsonschema.exceptions import ValidationError
from rest_framework.test import APIClient

from tests.games.playing import choose, fix_shuffles
from tests.games.test_full_match import MAX_REQUESTS, sign_up

pytestmark = pytest.mark.django_db

# Each game, and its table's house rules where they add fields to the answers.
GAMES = {
    "classic": {},
    "classic with the house rules": {
        "ask_partner_to_go_out": True,
        "double_going_out": True,
        "canasta_opening_from_5000": True,
        "target": 7500,
    },
    "samba": {"game": "samba"},
    "bolivia": {"game": "bolivia"},
}


@pytest.fixture(autouse=True)
def fixed_shuffles(monkeypatch: pytest.MonkeyPatch) -> None:
    fix_shuffles(monkeypatch)


def _strict(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: `nullable` as a null alternative, and objects with
    no undocumented key (drf-spectacular leaves additional properties open)."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _strict(value) for key, value in node.items() if key != "nullable"}
    if "properties" in converted:
        converted.setdefault("additionalProperties", False)
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def _leaves(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """The innermost errors: through a nullable field's alternatives, the non-null one's."""
    for error in errors:
        inner = [cause for cause in error.context or () if cause.validator_value != "null"]
        if inner:
            yield from _leaves(inner)
        else:
            yield error


@pytest.fixture(scope="module")
def served_schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


Check = Callable[[Any, str, str], Any]


@pytest.fixture
def check(served_schema: dict[str, Any]) -> Iterator[Check]:
    """Validates answers against their operation's documented body for their status (each
    returns its body); at the end, every way the answers strayed from the schema, once each."""
    components = _strict(served_schema["components"])
    drifts: set[str] = set()

    def validate(response: Any, method: str, path: str) -> Any:
        operation = served_schema["paths"][path][method]
        documented = operation["responses"][str(response.status_code)]
        body = response.json()
        answer_schema = {
            **_strict(documented["content"]["application/json"]["schema"]),
            "components": components,
        }
        for error in _leaves(jsonschema.Draft7Validator(answer_schema).iter_errors(body)):
            where = re.sub(r"\[\d+\]", "[*]", error.json_path)
            drifts.add(f"{method.upper()} {path} {response.status_code} {where}: {error.message}")
        return body

    yield validate
    assert not drifts, "\n".join(sorted(drifts))


def _open_and_fill(check: Check, rules: dict[str, Any], name: str) -> tuple[list[APIClient], int]:
    clients = [sign_up(f"{name}{seat}") for seat in range(4)]
    created = clients[0].post(
        "/api/games/", {"mode": "async", "length": "deal", "rules": rules}, format="json"
    )
    game_id = check(created, "post", "/api/games/")["id"]
    for seat in range(1, 4):
        joined = clients[seat].post(f"/api/games/{game_id}/join/", {"seat": seat}, format="json")
        check(joined, "post", "/api/games/{game_id}/join/")
    return clients, game_id


@pytest.mark.parametrize("rules", GAMES.values(), ids=GAMES.keys())
def test_every_answer_of_a_whole_game_is_as_documented(check: Check, rules: dict[str, Any]):
    name = "".join(key[0] for key in rules) + str(rules.get("game", "c"))[0]
    clients, game_id = _open_and_fill(check, rules, f"schema{name}")
    check(clients[1].get("/api/games/", {"mine": 1}), "get", "/api/games/")
    game = check(clients[0].get(f"/api/games/{game_id}/"), "get", "/api/games/{game_id}/")
    for _ in range(MAX_REQUESTS):
        if game["status"] != "active":
            break
        client = clients[game["turn_seat"]]
        game = check(client.get(f"/api/games/{game_id}/"), "get", "/api/games/{game_id}/")
        moved = client.post(
            f"/api/games/{game_id}/moves/",
            {"version": game["version"], "action": choose(game["legal_actions"])},
            format="json",
        )
        game = check(moved, "post", "/api/games/{game_id}/moves/")["game"]
    else:
        raise AssertionError("the game did not end")
    for client in clients:
        check(client.get(f"/api/games/{game_id}/"), "get", "/api/games/{game_id}/")
        log = client.get(f"/api/games/{game_id}/moves/", {"after": 0})
        check(log, "get", "/api/games/{game_id}/moves/")
    check(clients[0].get(f"/api/games/{game_id}/export/"), "get", "/api/games/{game_id}/export/")
    check(clients[0].get("/api/games/", {"mine": 1}), "get", "/api/games/")
    rematch = clients[0].post(f"/api/games/{game_id}/rematch/")
    check(rematch, "post", "/api/games/{game_id}/rematch/")
    invitations = clients[1].get("/api/me/invitations/")
    invitation = check(invitations, "get", "/api/me/invitations/")[0]
    declined = clients[1].post(f"/api/invitations/{invitation['id']}/decline/")
    check(declined, "post", "/api/invitations/{invitation_id}/decline/")


def test_the_table_answers_besides_moves_are_as_documented(check: Check):
    clients, game_id = _open_and_fill(check, {}, "schemaside")
    said = clients[0].post(f"/api/games/{game_id}/phrases/", {"phrase": "good_luck"}, format="json")
    check(said, "post", "/api/games/{game_id}/phrases/")
    check(clients[1].get(f"/api/games/{game_id}/"), "get", "/api/games/{game_id}/")
    check(clients[1].get("/api/phrases/"), "get", "/api/phrases/")
    heartbeat = clients[2].post(f"/api/games/{game_id}/heartbeat/")
    check(heartbeat, "post", "/api/games/{game_id}/heartbeat/")
    paused = clients[0].post(f"/api/games/{game_id}/pause/", {"days": 3}, format="json")
    check(paused, "post", "/api/games/{game_id}/pause/")
    for client in clients[1:]:
        accepted = client.post(f"/api/games/{game_id}/pause/accept/")
        check(accepted, "post", "/api/games/{game_id}/pause/accept/")
    resumed = clients[0].post(f"/api/games/{game_id}/pause/resume/")
    check(resumed, "post", "/api/games/{game_id}/pause/resume/")
    waiting = clients[0].post("/api/games/", {"mode": "live", "length": "deal"}, format="json")
    waiting_id = check(waiting, "post", "/api/games/")["id"]
    seated = {"seat": 1, "level": "club"}
    bot = clients[0].post(f"/api/games/{waiting_id}/bots/", seated, format="json")
    check(bot, "post", "/api/games/{game_id}/bots/")
    invited = clients[0].post(
        f"/api/games/{waiting_id}/invitations/", {"invite": [_user_id(clients[1])]}, format="json"
    )
    check(invited, "post", "/api/games/{game_id}/invitations/")
    check(clients[3].get("/api/games/", {"status": "waiting"}), "get", "/api/games/")
    invitation = check(clients[1].get("/api/me/invitations/"), "get", "/api/me/invitations/")[0]
    accepted = clients[1].post(f"/api/invitations/{invitation['id']}/accept/")
    check(accepted, "post", "/api/invitations/{invitation_id}/accept/")
    left = clients[1].post(f"/api/games/{waiting_id}/leave/")
    check(left, "post", "/api/games/{game_id}/leave/")


def _user_id(client: APIClient) -> int:
    return client.get("/api/me/").json()["id"]


def test_the_games_answers_examples_are_as_documented(served_schema: dict[str, Any]):
    """An example is read as an answer: it must be one."""
    components = _strict(served_schema["components"])
    examples = [
        (f"{method.upper()} {path} {status} {name}", body["schema"], example["value"])
        for path, operations in served_schema["paths"].items()
        if path.startswith("/api/games/")
        for method, operation in operations.items()
        for status, answer in operation.get("responses", {}).items()
        for body in answer.get("content", {}).values()
        for name, example in body.get("examples", {}).items()
    ]
    assert examples
    drifts = [
        f"{where} {error.json_path}: {error.message}"
        for where, schema, value in examples
        for error in _leaves(
            jsonschema.Draft7Validator({**_strict(schema), "components": components}).iter_errors(
                value
            )
        )
    ]
    assert not drifts, "\n".join(drifts)
