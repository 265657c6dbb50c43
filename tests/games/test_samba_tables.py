"""Samba and Bolivia tables and the «Acaba» house rule through the HTTP API on the real database
(issue 24): opened from the API, played to the score, replayed exactly from the export."""

from typing import Any

import pytest

from games.engine import Rules
from games.models import Game
from tests.games.playing import choose, fix_shuffles
from tests.games.test_full_match import play_out, replay
from tests.games.test_tables import open_and_fill

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fixed_shuffles(monkeypatch: pytest.MonkeyPatch) -> None:
    fix_shuffles(monkeypatch)


@pytest.mark.parametrize("game", ["samba", "bolivia"])
def test_a_samba_or_bolivia_deal_from_sign_up_to_the_score_and_its_replay(game: str) -> None:
    clients, game_id = open_and_fill(4, {"game": game}, "deal")
    first = clients[0].get(f"/api/games/{game_id}/").json()
    assert first["rules"]["game"] == game
    assert len(first["deal"]["hand"]) == 15 and first["deal"]["stock_count"] > 90
    final = play_out(clients, game_id, policy=choose)
    assert {body["status"] for body in final} == {"finished"}
    body = final[0]
    assert body["rules"] == {**Rules(game=game).to_options(), "target": None}
    for team in body["deal"]["teams"]:
        assert all(meld["kind"] in ("group", "sequence") for meld in team["melds"])
    export = clients[0].get(f"/api/games/{game_id}/export/").json()
    assert replay(export).to_dict() == Game.objects.get(pk=game_id).state


def test_samba_refuses_the_classic_variants_with_invalid_rules() -> None:
    clients, _ = open_and_fill(4, {"game": "samba"}, "deal")
    refused = clients[0].post(
        "/api/games/",
        {"mode": "async", "length": "deal", "rules": {"game": "samba", "players": 2}},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_rules"


def acaba_first(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Says «Acaba» at once when it may."""
    for action in legal:
        if action["type"] == "acaba":
            return action
    return choose(legal)


def test_acaba_ends_the_deal_and_the_other_side_scores_1500() -> None:
    clients, game_id = open_and_fill(4, {"acaba": True}, "deal")
    final = play_out(clients, game_id, policy=acaba_first)
    body = final[0]
    assert body["status"] == "finished"
    assert sorted(body["scores"]) == [0, 1500]
    export = clients[0].get(f"/api/games/{game_id}/export/").json()
    assert replay(export).to_dict() == Game.objects.get(pk=game_id).state
