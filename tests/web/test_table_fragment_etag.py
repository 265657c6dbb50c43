"""The table fragment's poll: a 304 after one read while nothing the viewer sees changed, and a
new body as soon as anything does, a move or not (issue #23, point 6)."""

import json

import pytest
from django.test import Client

from accounts.models import User
from games.engine import Match
from games.models import Game, Seat
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def poll(client: Client, game: Game, etag: str = "") -> tuple[int, str]:
    headers = {"if-none-match": etag} if etag else {}
    answer = client.get(f"/games/{game.pk}/table/", headers=headers)
    return answer.status_code, answer.headers.get("ETag", "")


def test_an_unchanged_table_is_a_304_and_a_move_changes_it():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    watcher = client_of(players[0])
    status, etag = poll(watcher, game)
    assert status == 200 and etag
    assert poll(watcher, game, etag)[0] == 304
    turn = Match.from_dict(game.state or {}).deal.turn
    moved = client_of(players[turn]).post(
        f"/games/{game.pk}/move/", {"version": "0", "action": json.dumps({"type": "draw"})}
    )
    assert moved.status_code == 200
    status, changed = poll(watcher, game, etag)
    assert status == 200 and changed != etag


def test_a_player_going_away_changes_the_table_without_a_new_version():
    players = UserFactory.create_batch(4)
    game = started_game(players=players, mode=Game.Mode.LIVE)
    watcher = client_of(players[0])
    _status, etag = poll(watcher, game)
    Seat.objects.filter(game=game, seat=2).update(is_absent=True)
    status, changed = poll(watcher, game, etag)
    assert status == 200 and changed != etag


def test_the_viewers_language_and_pause_votes_change_it():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    watcher = client_of(players[0])
    _status, etag = poll(watcher, game)
    User.objects.filter(pk=players[0].pk).update(language="en")
    status, english = poll(watcher, game, etag)
    assert status == 200 and english != etag
    asked = client_of(players[1]).post(f"/games/{game.pk}/pause/", {"days": "2"})
    assert asked.status_code == 302
    status, paused = poll(watcher, game, english)
    assert status == 200 and paused != english


def test_a_hidden_table_is_a_404_whatever_the_etag():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    Game.objects.filter(pk=game.pk).update(private=True)
    stranger = client_of(UserFactory.create())
    assert poll(stranger, game, '"anything"')[0] == 404
