"""Opening tables, seats, the start of a game, the lobby lists (R-DEAL-1)."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.models import Game, Seat
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def open_table(client, **body):
    payload = {"mode": "async", "length": "deal", "rules": {}, "private": False, **body}
    return client.post("/api/games/", payload, format="json")


def test_open_table_seats_the_creator(client_for):
    user = UserFactory()
    response = open_table(client_for(user), seat=2)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "waiting"
    assert body["your_seat"] == 2
    assert body["players"][0]["seat"] == 2
    assert body["deal"] is None
    assert body["legal_actions"] == []
    assert body["invite_code"] is None  # public table
    assert body["rules"]["target"] is None  # a single deal


def test_match_rules_are_validated_and_stored(client_for):
    client = client_for(UserFactory())
    response = open_table(client, length="match", rules={"target": 2500, "wild_limit": "half"})
    assert response.status_code == 201, response.json()
    assert response.json()["rules"]["target"] == 2500
    assert response.json()["rules"]["wild_limit"] == "half"


@pytest.mark.parametrize(
    "rules",
    [{"wild_limit": "none"}, {"no_such_option": 1}, {"target": "many"}, {"stock_out": None}],
)
def test_bad_rules_are_400_invalid_rules(client_for, rules):
    response = open_table(client_for(UserFactory()), length="match", rules=rules)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_rules"
    assert response.json()["detail"]


def test_a_match_needs_a_target(client_for):
    response = open_table(client_for(UserFactory()), length="match", rules={"target": None})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_rules"


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "blitz"},
        {"length": "forever"},
        {"seat": 4},
        {"seat": -1},
        {"rules": []},
        {"private": "maybe"},
    ],
)
def test_bad_table_requests_are_400(client_for, body):
    response = open_table(client_for(UserFactory()), **body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_malformed_json_is_400(client_for):
    response = client_for(UserFactory()).post(
        "/api/games/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_anonymous_is_401(api_client):
    assert api_client.get("/api/games/").status_code == 401


def test_private_table_needs_the_invite_code(client_for):
    creator, stranger, friend = UserFactory.create_batch(3)
    created = open_table(client_for(creator), private=True).json()
    code = created["invite_code"]
    assert code
    game_id = created["id"]

    # Strangers neither see the table in the lobby nor its code.
    lobby = client_for(stranger).get("/api/games/?status=waiting").json()
    assert game_id not in [row["id"] for row in lobby["results"]]
    assert client_for(stranger).get(f"/api/games/{game_id}/").status_code == 404
    # With the code the table shows (to join it), still without the code itself.
    shown = client_for(stranger).get(f"/api/games/{game_id}/", {"invite_code": code})
    assert shown.status_code == 200
    assert shown.json()["invite_code"] is None

    wrong = client_for(stranger).post(
        f"/api/games/{game_id}/join/", {"seat": 1, "invite_code": "nope"}, format="json"
    )
    # Without the code the table does not exist for them (tests/games/test_private_tables.py).
    assert wrong.status_code == 404
    assert wrong.json()["code"] == "not_found"
    missing = client_for(stranger).post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json")
    assert missing.status_code == 404

    joined = client_for(friend).post(
        f"/api/games/{game_id}/join/", {"seat": 1, "invite_code": code}, format="json"
    )
    assert joined.status_code == 200, joined.json()
    assert joined.json()["invite_code"] == code  # seated players see it
    lobby = client_for(friend).get("/api/games/?status=waiting").json()
    assert game_id in [row["id"] for row in lobby["results"]]


def test_seats_taken_and_double_seating_are_refused(client_for):
    creator, other = UserFactory.create_batch(2)
    game_id = open_table(client_for(creator)).json()["id"]
    taken = client_for(other).post(f"/api/games/{game_id}/join/", {"seat": 0}, format="json")
    assert taken.status_code == 409
    assert taken.json()["code"] == "seat_taken"
    again = client_for(creator).post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "already_seated"
    bad = client_for(other).post(f"/api/games/{game_id}/join/", {"seat": 7}, format="json")
    assert bad.status_code == 400


def test_join_unknown_game_is_404(client_for):
    response = client_for(UserFactory()).post("/api/games/999999/join/", {"seat": 1}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    huge = client_for(UserFactory()).get("/api/games/99999999999999999999999/")
    assert huge.status_code == 404


def test_leave_before_the_start_and_the_empty_table_goes(client_for):
    creator, other = UserFactory.create_batch(2)
    game_id = open_table(client_for(creator)).json()["id"]
    client_for(other).post(f"/api/games/{game_id}/join/", {"seat": 3}, format="json")
    left = client_for(other).post(f"/api/games/{game_id}/leave/")
    assert left.status_code == 200
    assert [p["seat"] for p in left.json()["players"]] == [0]
    not_seated = client_for(other).post(f"/api/games/{game_id}/leave/")
    assert not_seated.status_code == 403
    assert not_seated.json()["code"] == "not_seated"
    assert client_for(creator).post(f"/api/games/{game_id}/leave/").status_code == 204
    assert not Game.objects.filter(pk=game_id).exists()


def test_four_seated_start_the_game(client_for, django_capture_on_commit_callbacks):
    users = UserFactory.create_batch(4)
    game_id = open_table(client_for(users[0])).json()["id"]
    for seat in (1, 2):
        response = client_for(users[seat]).post(
            f"/api/games/{game_id}/join/", {"seat": seat}, format="json"
        )
        assert response.json()["status"] == "waiting"
    response = client_for(users[3]).post(f"/api/games/{game_id}/join/", {"seat": 3}, format="json")
    body = response.json()
    assert body["status"] == "active"
    assert body["version"] == 0
    assert body["deal_number"] == 1
    game = Game.objects.get(pk=game_id)
    assert game.first_dealer is not None
    assert game.first_dealer in range(4)
    assert game.seed is not None
    # R-DEAL-1: the player left of the dealer moves first.
    assert body["turn_seat"] == (game.first_dealer + 1) % 4
    assert body["deal"]["dealer"] == game.first_dealer
    assert len(body["deal"]["hand"]) >= 11
    assert body["turn_deadline"] is not None
    left = client_for(users[3]).post(f"/api/games/{game_id}/leave/")
    assert left.status_code == 409
    assert left.json()["code"] == "game_started"
    late = client_for(UserFactory()).post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json")
    assert late.status_code == 409
    assert late.json()["code"] == "game_not_waiting"


def test_the_start_notifies_everyone_and_the_first_player(players):
    from tests.factories import started_game

    with mock.patch("games.services.turns.notify") as notify:
        game = started_game(players=players)
    calls = [call.kwargs for call in notify.call_args_list]
    started = [call["user_id"] for call in calls if call["kind"] == "game_started"]
    assert sorted(started) == sorted(player.pk for player in players)
    [turn] = [call for call in calls if call["kind"] == "your_turn"]
    assert turn["user_id"] == players[game.turn_seat].pk
    assert turn["game_id"] == game.pk


def test_live_games_send_no_your_turn(players):
    from tests.factories import started_game

    with mock.patch("games.services.turns.notify") as notify:
        started_game(players=players, mode="live")
    assert "your_turn" not in [call.kwargs["kind"] for call in notify.call_args_list]


def test_first_dealers_are_random(players):
    from tests.factories import started_game

    dealers = {started_game(players=players).first_dealer for _ in range(12)}
    assert len(dealers) > 1


def test_suspended_users_cannot_create_or_join(client_for):
    creator, suspended = UserFactory.create_batch(2)
    suspended.suspended_until = timezone.now() + timedelta(days=1)
    suspended.save()
    response = open_table(client_for(suspended))
    assert response.status_code == 403
    assert response.json()["code"] == "suspended"
    game_id = open_table(client_for(creator)).json()["id"]
    response = client_for(suspended).post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "suspended"
    # An expired suspension no longer counts.
    suspended.suspended_until = timezone.now() - timedelta(minutes=1)
    suspended.save()
    response = client_for(suspended).post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json")
    assert response.status_code == 200


def test_lobby_lists_open_tables_and_my_unfinished_games(client_for, game, players):
    waiting_id = open_table(client_for(UserFactory())).json()["id"]
    me = players[game.turn_seat]
    waiting = client_for(me).get("/api/games/?status=waiting").json()
    assert [row["id"] for row in waiting["results"]] == [waiting_id]

    mine = client_for(me).get("/api/games/?mine=1&status=active").json()
    assert mine["count"] == 1
    row = mine["results"][0]
    assert row["id"] == game.pk
    assert row["your_turn"] is True
    assert row["turn_seat"] == game.turn_seat
    assert row["turn_deadline"] is not None
    assert "deal" not in row

    other = players[(game.turn_seat + 1) % 4]
    row = client_for(other).get("/api/games/?mine=1&status=active").json()["results"][0]
    assert row["your_turn"] is False
    assert client_for(UserFactory()).get("/api/games/?mine=1").json()["count"] == 0
    assert client_for(me).get("/api/games/?status=nonsense").status_code == 400


def test_reading_a_game_marks_the_player_seen_and_back(client_for, game, players):
    seat = Seat.objects.get(game=game, seat=1)
    long_ago = timezone.now() - timedelta(minutes=5)
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=long_ago, is_absent=True)
    client_for(players[1]).get(f"/api/games/{game.pk}/")
    seat.refresh_from_db()
    assert seat.last_seen_at is not None
    assert timezone.now() - seat.last_seen_at < timedelta(seconds=5)
    assert seat.is_absent is False


def test_a_recently_seen_player_costs_no_write(
    client_for, game, players, django_assert_num_queries
):
    client = client_for(players[2])
    client.get(f"/api/games/{game.pk}/")
    # The game with its seats (1); no UPDATE of the seat.
    with django_assert_num_queries(1):
        client.get(f"/api/games/{game.pk}/")


@pytest.mark.parametrize(
    "rules",
    [
        {"target": 10**30},
        {"target": -5},
        {"target": 0},
        {"target": True},
        {"target": 2500.5},
        {"wild_limit": ["half"]},
        {"tie": {"a": 1}},
        {"\u0000": 1},
        {"upcard_stops_on_black_three": "yes"},
    ],
)
def test_odd_rules_never_500(client_for, rules):
    response = open_table(client_for(UserFactory()), length="match", rules=rules)
    assert response.status_code in (201, 400), response.content
    if response.status_code == 400:
        assert response.json()["code"] in ("invalid_rules", "invalid")


def test_browsable_api_renders_the_lobby_for_a_browser(client_for):
    client = client_for(UserFactory())
    open_table(client)
    response = client.get("/api/games/?status=waiting", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert b"Lobby and own games" in response.content or b"<html" in response.content


def test_polling_with_the_etag_costs_no_body_until_the_game_changes(client_for, game, players):
    seat = game.turn_seat
    watcher = client_for(players[(seat + 1) % 4])
    first = watcher.get(f"/api/games/{game.pk}/")
    etag = first.headers["ETag"]

    unchanged = watcher.get(f"/api/games/{game.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304
    assert unchanged.content == b""

    mover = client_for(players[seat])
    moved = mover.post(
        f"/api/games/{game.pk}/moves/",
        {"version": game.version, "action": {"type": "draw"}},
        format="json",
    )
    assert moved.status_code == 200
    changed = watcher.get(f"/api/games/{game.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed.json()["version"] == game.version + 1
