"""The move service through the API: persistence, errors, idempotency, query counts."""

from datetime import timedelta

import pytest

from games.engine import Match
from games.models import Game, IdempotentResponse, Move, Seat
from tests.factories import UserFactory, started_game
from tests.games.conftest import key, post_move

pytestmark = pytest.mark.django_db


def test_a_draw_is_persisted_and_the_state_stored(client_for, game, players):
    seat = game.turn_seat
    response = post_move(client_for(players[seat]), game.pk, 0, {"type": "draw"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["game"]["version"] == 1
    assert body["game"]["deal"]["phase"] == "play"
    assert body["game"]["turn_seat"] == seat
    [move] = body["moves"]
    assert move["seq"] == 1
    assert move["seat"] == seat
    assert move["action"] == {"type": "draw"}
    assert move["automatic"] is False
    assert move["private"]["cards"]  # the actor sees the card drawn

    row = Move.objects.get(game=game)
    assert (row.seq, row.seat, row.action, row.automatic) == (1, seat, {"type": "draw"}, False)
    game.refresh_from_db()
    assert game.version == 1
    assert Match.from_dict(game.state).deal.phase == "play"


def test_a_whole_turn_passes_the_turn_and_notifies_the_next_player(client_for, game, players):
    from notifications.models import OutboxMessage

    seat = game.turn_seat
    client = client_for(players[seat])
    body = post_move(client, game.pk, 0, {"type": "draw"}).json()
    discard = next(a for a in body["game"]["legal_actions"] if a["type"] == "discard")
    next_seat = (seat + 1) % 4
    body = post_move(client, game.pk, 1, discard).json()
    assert body["game"]["turn_seat"] == next_seat
    assert body["game"]["legal_actions"] == []  # no longer the caller's turn
    assert body["game"]["deal"]["pile"]["top"] == discard["card"]
    turn = OutboxMessage.objects.filter(game_id=game.pk, kind="your_turn", user=players[next_seat])
    assert turn.count() == 1
    # The next player's game shows their legal actions.
    detail = client_for(players[next_seat]).get(f"/api/games/{game.pk}/").json()
    assert {"type": "draw"} in detail["legal_actions"]
    assert detail["your_turn"] is True


@pytest.mark.parametrize(
    ("mode", "limit"), [("async", timedelta(hours=24)), ("live", timedelta(seconds=30))]
)
def test_turn_deadline_follows_the_mode(players, mode, limit):
    game = started_game(players=players, mode=mode)
    assert game.turn_deadline is not None
    assert game.turn_started_at is not None
    assert game.turn_deadline - game.turn_started_at == limit


def test_out_of_turn_is_400_not_your_turn_in_both_languages(client_for, game, players):
    other = players[(game.turn_seat + 1) % 4]
    response = post_move(client_for(other), game.pk, 0, {"type": "draw"})
    assert response.status_code == 400
    assert response.json()["code"] == "not_your_turn"
    assert response.json()["detail"] == "Сейчас не ваш ход."
    english = post_move(client_for(other), game.pk, 0, {"type": "draw"}, {"Accept-Language": "en"})
    assert english.json() == {"code": "not_your_turn", "detail": "It is not your turn."}
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "discard", "card": "7H"}, "wrong_phase"),
        ({"type": "fly"}, "bad_action"),
        ({"type": "discard"}, "bad_action"),
        ({"type": "discard", "card": "ZZ"}, "unknown_card"),
        ({"type": "meld", "melds": "lots"}, "bad_action"),
        ({"type": "meld", "melds": [{"cards": [1, 2, 3]}]}, "bad_action"),
        ({}, "bad_action"),
    ],
)
def test_illegal_and_malformed_actions_are_400_with_the_engine_code(
    client_for, game, players, action, code
):
    response = post_move(client_for(players[game.turn_seat]), game.pk, 0, action)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["detail"]
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.parametrize(
    "body",
    [
        {"action": {"type": "draw"}},
        {"version": "x", "action": {"type": "draw"}},
        {"version": -1, "action": {"type": "draw"}},
        {"version": 0, "action": "draw"},
        {"version": 0, "action": ["draw"]},
        {"version": 2**80, "action": {"type": "draw"}},
        [1, 2],
    ],
)
def test_malformed_move_requests_are_400(client_for, game, players, body):
    response = client_for(players[game.turn_seat]).post(
        f"/api/games/{game.pk}/moves/", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_malformed_json_move_is_400(client_for, game, players):
    response = client_for(players[game.turn_seat]).post(
        f"/api/games/{game.pk}/moves/", '{"version": 0,', content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_not_seated_is_403_and_unknown_game_404(client_for, game):
    stranger = client_for(UserFactory())
    response = post_move(stranger, game.pk, 0, {"type": "draw"})
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"
    assert post_move(stranger, 10**9, 0, {"type": "draw"}).status_code == 404
    assert stranger.get(f"/api/games/{10**9}/moves/").status_code == 404


def test_a_stale_version_is_409(client_for, game, players):
    client = client_for(players[game.turn_seat])
    assert post_move(client, game.pk, 0, {"type": "draw"}).status_code == 200
    response = post_move(client, game.pk, 0, {"type": "draw"})
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert response.json()["version"] == 1


def test_moves_on_a_waiting_table_are_409(client_for):
    user = UserFactory()
    game_id = (
        client_for(user)
        .post("/api/games/", {"mode": "live", "length": "deal"}, format="json")
        .json()["id"]
    )
    response = post_move(client_for(user), game_id, 0, {"type": "draw"})
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_active"


def test_an_idempotency_key_replays_the_first_answer(client_for, game, players):
    client = client_for(players[game.turn_seat])
    first = post_move(client, game.pk, 0, {"type": "draw"}, key("draw-1"))
    again = post_move(client, game.pk, 0, {"type": "draw"}, key("draw-1"))
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert Move.objects.filter(game=game).count() == 1
    # A different key is a different request: now it is stale.
    other = post_move(client, game.pk, 0, {"type": "draw"}, key("draw-2"))
    assert other.status_code == 409


def test_an_idempotent_refusal_is_replayed_too(client_for, game, players):
    client = client_for(players[game.turn_seat])
    first = post_move(client, game.pk, 0, {"type": "discard", "card": "7H"}, key("k"))
    again = post_move(client, game.pk, 0, {"type": "discard", "card": "7H"}, key("k"))
    assert first.status_code == again.status_code == 400
    assert first.json() == again.json()
    assert IdempotentResponse.objects.count() == 1


def test_idempotency_keys_are_per_user(client_for, game, players):
    seat = game.turn_seat
    post_move(client_for(players[seat]), game.pk, 0, {"type": "draw"}, key("k"))
    other = post_move(
        client_for(players[(seat + 1) % 4]),
        game.pk,
        1,
        {"type": "draw"},
        key("k"),
    )
    assert other.status_code == 400
    assert other.json()["code"] == "not_your_turn"


def test_an_overlong_idempotency_key_is_400(client_for, game, players):
    response = post_move(
        client_for(players[game.turn_seat]),
        game.pk,
        0,
        {"type": "draw"},
        key("k" * 300),
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"


def test_a_manual_move_clears_absence(client_for, game, players):
    seat = game.turn_seat
    Seat.objects.filter(game=game, seat=seat).update(is_absent=True, consecutive_timeouts=2)
    post_move(client_for(players[seat]), game.pk, 0, {"type": "draw"})
    row = Seat.objects.get(game=game, seat=seat)
    assert (row.is_absent, row.consecutive_timeouts) == (False, 0)


def _play_turns(client_for, game: Game, players, turns: int) -> None:
    """Plays `turns` whole turns (draw, discard the first legal discard) through the API."""
    for _ in range(turns):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        client = client_for(players[game.turn_seat])
        body = post_move(client, game.pk, game.version, {"type": "draw"}).json()
        if body["game"]["turn_seat"] != game.turn_seat or body["game"]["status"] != "active":
            continue
        discard = next(a for a in body["game"]["legal_actions"] if a["type"] == "discard")
        post_move(client, game.pk, body["game"]["version"], discard)


def _queries_for_a_move_and_a_read(client_for, game, players, django_assert_max_num_queries):
    game.refresh_from_db()
    client = client_for(players[game.turn_seat])
    with django_assert_max_num_queries(14):
        response = post_move(client, game.pk, game.version, {"type": "draw"})
    assert response.status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(f"/api/games/{game.pk}/").status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(f"/api/games/{game.pk}/moves/?after=0").status_code == 200


def test_queries_per_move_and_read_do_not_grow_with_history(
    client_for, game, players, django_assert_max_num_queries
):
    _queries_for_a_move_and_a_read(client_for, game, players, django_assert_max_num_queries)
    game.refresh_from_db()
    client = client_for(players[game.turn_seat])
    body = client.get(f"/api/games/{game.pk}/").json()
    discard = next(a for a in body["legal_actions"] if a["type"] == "discard")
    post_move(client, game.pk, game.version, discard)
    _play_turns(client_for, game, players, 12)
    game.refresh_from_db()
    assert game.version >= 20
    _queries_for_a_move_and_a_read(client_for, game, players, django_assert_max_num_queries)


@pytest.mark.parametrize("bad_key", ["k" * 300, "tab\tkey", "line\x7fkey"])
def test_odd_idempotency_keys_are_400(client_for, game, players, bad_key):
    response = post_move(
        client_for(players[game.turn_seat]), game.pk, 0, {"type": "draw"}, key(bad_key)
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"
