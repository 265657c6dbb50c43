"""Opening a table: the targets a match may play to, and at most five waiting tables a user."""

import pytest

from games import services
from games.engine import Rules
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "target", [10**24, 2**63, True, False, 0, -5, 499, 10_001, 1e30, 5000.0, "x", "5000", [5000]]
)
def test_unreasonable_targets_are_refused_by_the_engine(target):
    with pytest.raises(ValueError):
        Rules(target=target)


@pytest.mark.parametrize("target", [500, 2500, 5000, 10_000, None])
def test_the_club_targets_are_accepted(target):
    assert Rules(target=target).target == target


@pytest.mark.parametrize("length", ["match", "deal"])
@pytest.mark.parametrize("target", [10**24, 2**63, "x", -5, 1e30, True])
def test_bad_targets_are_400_for_every_length(client_for, length, target):
    response = client_for(UserFactory.create()).post(
        "/api/games/",
        {"mode": "async", "length": length, "rules": {"target": target}},
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid_rules"
    assert "target" in response.json()["detail"]


def test_a_single_deal_with_a_valid_target_plays_without_one(client_for):
    response = client_for(UserFactory.create()).post(
        "/api/games/",
        {"mode": "async", "length": "deal", "rules": {"target": 2500, "wild_limit": "half"}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["rules"]["target"] is None
    assert response.json()["rules"]["wild_limit"] == "half"


def test_at_most_five_waiting_tables_per_user(client_for):
    user = UserFactory.create()
    client = client_for(user)
    body = {"mode": "async", "length": "deal", "rules": {}}
    created = [client.post("/api/games/", body, format="json") for _ in range(5)]
    assert [response.status_code for response in created] == [201] * 5
    refused = client.post("/api/games/", body, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "too_many_open_tables"
    # A table that starts no longer counts.
    game_id = created[0].json()["id"]
    for seat in (1, 2, 3):
        services.join_table(game_id=game_id, user=UserFactory.create(), seat=seat)
    assert client.post("/api/games/", body, format="json").status_code == 201
