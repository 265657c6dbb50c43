"""The table fragment a move answers with is drawn from the move service's result (its table,
parsed state and written moves, issue 34): the same table a fresh read shows."""

import json
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from club import clock
from games import selectors
from games.models import Game
from games.services import timeouts
from tests.factories import UserFactory, started_game
from tests.games.playing import choose
from tests.timing.conftest import play_turn, turn_of

pytestmark = pytest.mark.django_db

# A form's CSRF token is masked afresh in every render.
_CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def _client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _web_move(client: Client, game: Game, action: dict) -> str:
    answer = client.post(
        f"/games/{game.pk}/move/", {"version": game.version, "action": json.dumps(action)}
    )
    assert answer.status_code == 200, answer.content.decode()
    return _CSRF_TOKEN.sub("", answer.content.decode())


def _fragment(client: Client, game: Game) -> str:
    answer = client.get(f"/games/{game.pk}/table/")
    assert answer.status_code == 200
    return _CSRF_TOKEN.sub("", answer.content.decode())


@pytest.mark.parametrize("rules", [{}, {"game": "samba"}], ids=["classic", "samba"])
def test_a_moves_answer_is_the_table_a_fresh_read_shows(rules: dict) -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players, rules=rules)
    clients = [_client_of(player) for player in players]
    for _ in range(12):
        seat = turn_of(game)
        table = selectors.game_with_seats(game_id=game.pk)
        assert table is not None
        legal = selectors.game_detail(table=table, viewer=players[seat])["legal_actions"]
        answered = _web_move(clients[seat], game, choose(legal))
        game.refresh_from_db()
        assert answered == _fragment(clients[seat], game)


def test_a_player_back_from_timeouts_no_longer_reads_of_them_in_their_moves_answer() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    culprit = turn_of(game)
    clock.advance(settings.TURN_LIMIT["async"] + timedelta(seconds=1))
    assert timeouts.sweep() == 1
    client = _client_of(players[culprit])
    game.refresh_from_db()
    assert "data-autoplayed" in _fragment(client, game)
    while turn_of(game) != culprit:
        play_turn(game.pk)
        game.refresh_from_db()
    answered = _web_move(client, game, {"type": "draw"})
    assert "data-autoplayed" not in answered
    game.refresh_from_db()
    assert answered == _fragment(client, game)
