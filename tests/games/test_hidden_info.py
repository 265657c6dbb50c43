"""Hunting for leaks: no response lets a player learn another hand, the stock or a seed."""

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import Match
from games.models import Game
from tests.factories import UserFactory
from tests.games.conftest import post_move

pytestmark = pytest.mark.django_db

SECRET_KEYS = {"seed", "stock", "hands", "deck", "state", "codes"}


def walk(value: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    if isinstance(value, dict):
        for name, item in value.items():
            yield path, name, item
            yield from walk(item, f"{path}.{name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}[{index}]")


def assert_no_secrets(body: Any, *, own_hand: list[str] | None) -> None:
    for path, name, item in walk(body):
        assert name not in SECRET_KEYS, f"{path}.{name} in a player's response"
        if name == "hand" and isinstance(item, list):
            assert path.endswith("deal"), f"a hand at {path}"
            assert own_hand is not None, "a spectator got a hand"
            assert Counter(item) == Counter(own_hand), "a hand that is not the caller's"


def play_a_few_turns(client_for, game: Game, players, turns: int) -> None:
    for _ in range(turns):
        game.refresh_from_db()
        client = client_for(players[game.turn_seat])
        body = post_move(client, game.pk, game.version, {"type": "draw"}).json()
        if body["game"]["deal"]["phase"] != "play":
            continue
        discard = next(a for a in body["game"]["legal_actions"] if a["type"] == "discard")
        post_move(client, game.pk, body["game"]["version"], discard)


def test_no_response_reveals_other_hands_the_stock_or_seeds(client_for, game, players):
    play_a_few_turns(client_for, game, players, 6)
    game.refresh_from_db()
    match = Match.from_dict(game.state)
    spectator = UserFactory()
    viewers = [(player, seat) for seat, player in enumerate(players)] + [(spectator, None)]
    for user, seat in viewers:
        client = client_for(user)
        own_hand = match.deal.hand(seat) if seat is not None else None
        detail = client.get(f"/api/games/{game.pk}/").json()
        assert_no_secrets(detail, own_hand=own_hand)
        assert detail["your_seat"] == seat
        if seat is None:
            assert "hand" not in detail["deal"]
        else:
            assert Counter(detail["deal"]["hand"]) == Counter(own_hand)
        # Only the player whose turn it is gets legal actions, and only with their own cards.
        if seat != game.turn_seat:
            assert detail["legal_actions"] == []
        else:
            assert detail["legal_actions"]
        for path, name, item in walk(detail["legal_actions"]):
            if name == "card":
                assert own_hand is not None
                assert item in own_hand, f"{path}: a card outside the caller's hand"

        log = client.get(f"/api/games/{game.pk}/moves/").json()
        assert_no_secrets(log, own_hand=None)
        assert len(log["moves"]) == game.version
        for move in log["moves"]:
            if move["seat"] == seat:
                assert move["private"] is not None
            else:
                assert move["private"] is None, "another seat's private event"
            if move["action"]["type"] == "draw":
                # Others see that a card was drawn and red threes laid, never the card itself.
                public_cards = [
                    card
                    for _, name, item in walk(move["public"])
                    if name == "cards"
                    for card in item
                ]
                assert public_cards == []

        lobby = client.get("/api/games/?mine=1").json()
        assert_no_secrets(lobby, own_hand=None)

        export = client.get(f"/api/games/{game.pk}/export/")
        assert export.status_code == 409
        assert export.json()["code"] == "game_not_finished"


def test_the_move_answer_shows_only_the_movers_view(client_for, game, players):
    seat = game.turn_seat
    body = post_move(client_for(players[seat]), game.pk, 0, {"type": "draw"}).json()
    game.refresh_from_db()
    match = Match.from_dict(game.state)
    assert_no_secrets(body, own_hand=match.deal.hand(seat))
    assert body["game"]["deal"]["seat"] == seat


def test_an_other_seats_draw_shows_no_card_in_the_log(client_for, game, players):
    seat = game.turn_seat
    drawn = post_move(client_for(players[seat]), game.pk, 0, {"type": "draw"}).json()
    card = drawn["moves"][0]["private"]["cards"]
    assert card
    watcher = client_for(players[(seat + 1) % 4])
    [move] = watcher.get(f"/api/games/{game.pk}/moves/?after=0").json()["moves"]
    assert move["private"] is None
    assert "cards" not in move["public"]
    assert watcher.get(f"/api/games/{game.pk}/moves/?after=1").json()["moves"] == []
    assert watcher.get(f"/api/games/{game.pk}/moves/?after=x").status_code == 400
