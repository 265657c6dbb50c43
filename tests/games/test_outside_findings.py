"""An outside tester's findings: idempotency keys, private tables, seed size, targets, the cap
on waiting tables, and the schema of the game view."""

import random
from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from canasta_club import clock
from games import services
from games.engine import Deal, Match, Rules
from games.engine.match import deal_seed
from games.models import Game, IdempotentResponse, Move
from tests.factories import UserFactory, started_game
from tests.games.conftest import key, post_move

pytestmark = pytest.mark.django_db


# 1. Idempotency keys


def test_a_key_first_sent_with_a_stale_version_plays_when_retried_right(client_for, game, players):
    client = client_for(players[game.turn_seat])
    stale = post_move(client, game.pk, 5, {"type": "draw"}, headers=key("k1"))
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    assert not IdempotentResponse.objects.exists()

    played = post_move(client, game.pk, 0, {"type": "draw"}, headers=key("k1"))
    assert played.status_code == 200, played.json()
    replayed = post_move(client, game.pk, 0, {"type": "draw"}, headers=key("k1"))
    assert replayed.status_code == 200 and replayed.json() == played.json()
    assert Move.objects.filter(game=game).count() == 1


def test_an_engine_refusal_is_final_for_its_key(client_for, game, players):
    client = client_for(players[game.turn_seat])
    refused = post_move(client, game.pk, 0, {"type": "discard", "card": "7H"}, headers=key("k"))
    assert refused.status_code == 400 and refused.json()["code"] == "wrong_phase"
    again = post_move(client, game.pk, 0, {"type": "discard", "card": "7H"}, headers=key("k"))
    assert (again.status_code, again.json()) == (400, refused.json())


def test_not_seated_leaves_the_key_unused(client_for, game):
    stranger = client_for(UserFactory.create())
    assert post_move(stranger, game.pk, 0, {"type": "draw"}, headers=key("k")).status_code == 403
    assert not IdempotentResponse.objects.exists()


def test_a_key_reused_for_another_request_is_422_and_plays_nothing(client_for, game, players):
    client = client_for(players[game.turn_seat])
    assert post_move(client, game.pk, 0, {"type": "draw"}, headers=key("k")).status_code == 200
    for version, action in ((1, {"type": "draw"}), (0, {"type": "undo"})):
        reused = post_move(client, game.pk, version, action, headers=key("k"))
        assert reused.status_code == 422
        assert reused.json()["code"] == "idempotency_key_reused"
    game.refresh_from_db()
    assert game.version == 1


def test_stored_answers_are_forgotten_after_a_day(client_for, game, players):
    client = client_for(players[game.turn_seat])
    assert post_move(client, game.pk, 0, {"type": "draw"}, headers=key("k")).status_code == 200
    clock.advance(services.IDEMPOTENCY_KEY_TTL - timedelta(minutes=1))
    assert services.purge_idempotency_keys() == 0
    clock.advance(timedelta(minutes=2))
    assert services.purge_idempotency_keys() == 1
    assert not IdempotentResponse.objects.exists()


def test_the_fingerprint_ignores_key_order():
    first = {"type": "meld", "melds": [{"cards": ["5H", "5S", "2C"], "rank": "5"}]}
    second = {"melds": [{"rank": "5", "cards": ["5H", "5S", "2C"]}], "type": "meld"}
    assert services.request_fingerprint(version=3, action=first) == services.request_fingerprint(
        version=3, action=second
    )
    assert services.request_fingerprint(version=3, action=first) != services.request_fingerprint(
        version=4, action=first
    )


# 2. Private tables


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


# 3. Seeds


def test_match_and_deal_seeds_have_128_bits(game):
    game.refresh_from_db()
    assert 0 <= int(game.seed) < 2**128
    assert game.state["seed"] == int(game.seed)
    # A fixed input: the derived seed uses all 16 bytes of the digest.
    assert deal_seed(1, 1).bit_length() > 100
    assert deal_seed(2**127 + 3, 2) != deal_seed(2**127 + 3, 3)


def test_big_seeds_are_deterministic_and_round_trip_through_the_database(players):
    seed = 2**128 - 1
    first = Deal.new(Rules(), dealer=0, seed=seed)
    assert first.to_dict() == Deal.new(Rules(), dealer=0, seed=seed).to_dict()
    assert first.to_dict() != Deal.new(Rules(), dealer=0, seed=seed - 1).to_dict()
    match = Match.new(Rules(), first_dealer=0, seed=seed)
    game = started_game(players=players)
    Game.objects.filter(pk=game.pk).update(seed=seed, state=match.to_dict())
    game.refresh_from_db()
    assert str(game.seed) == str(seed)
    assert game.state is not None
    assert Match.from_dict(game.state).to_dict() == match.to_dict()


def test_the_match_seed_is_fresh_per_game():
    seeds = {started_game(players=UserFactory.create_batch(4)).seed for _ in range(3)}
    assert len(seeds) == 3


# 4. Targets


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


# 5. Waiting tables per user


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


# 6. Schema


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


def test_random_is_not_used_for_seeds():
    # The match seed comes from `secrets`, never from the `random` module's state.
    random.seed(0)
    players = UserFactory.create_batch(4)
    first = started_game(players=players).seed
    random.seed(0)
    second = started_game(players=UserFactory.create_batch(4)).seed
    assert first != second
