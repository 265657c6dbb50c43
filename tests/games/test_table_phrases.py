"""The table's phrases (issue 37, CONTRACT.md §8): a fixed list, said to the whole table, shown
in the game's answer, one every few seconds per player, muted by whoever wishes."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import User
from club import clock
from games import live, selectors, services
from games.models import Game, TablePhrase
from games.table_phrases import LATEST, PHRASE_INTERVAL, PHRASES
from tests.concurrency import run_in_threads
from tests.factories import UserFactory, started_game
from tests.games.playing import choose

pytestmark = pytest.mark.django_db

Client = Callable[[User], APIClient]


def say(client: APIClient, game: Game, phrase: Any, **extra: Any) -> Any:
    return client.post(f"/api/games/{game.pk}/phrases/", {"phrase": phrase, **extra}, format="json")


def test_the_list_is_fixed_and_in_both_languages(client_for: Client) -> None:
    client = client_for(UserFactory.create())
    russian = client.get("/api/phrases/").json()
    english = client.get("/api/phrases/", headers={"Accept-Language": "en"}).json()
    assert [row["key"] for row in russian] == list(PHRASES)
    assert {"hello", "good_luck", "thanks", "well_played", "sorry", "one_moment"} <= set(PHRASES)
    assert russian[1] == {"key": "good_luck", "text": "Удачи!"}
    assert english[1] == {"key": "good_luck", "text": "Good luck!"}


def test_a_phrase_goes_to_the_whole_table(client_for: Client) -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    # A silent table is known from the game's row: its read asks no query for phrases.
    with CaptureQueriesContext(connection) as silent_read:
        assert client_for(players[0]).get(f"/api/games/{game.pk}/").json()["phrases"] == []
    assert not [q for q in silent_read.captured_queries if "tablephrase" in q["sql"]]
    said = say(client_for(players[2]), game, "good_luck")
    assert said.status_code == 201, said.json()
    assert said.json()["seat"] == 2 and said.json()["phrase"] == "good_luck"
    for player in players:
        shown = client_for(player).get(f"/api/games/{game.pk}/").json()["phrases"]
        assert [(row["seat"], row["phrase"]) for row in shown] == [(2, "good_luck")]
        assert shown[0]["at"] == said.json()["at"]
    # Said without a move: the game's version stays; its count of phrases moves.
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Game.objects.get(pk=game.pk).phrases_said == 1


def test_a_phrase_is_announced_to_the_tables_live_pages(
    client_for: Client, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    published: list[tuple[str, int]] = []
    monkeypatch.setattr(
        live, "_publish", lambda channel, version: published.append((channel, version))
    )
    monkeypatch.setattr("django.conf.settings.LIVE_EVENTS", True)
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    with django_capture_on_commit_callbacks(execute=True):
        say(client_for(players[0]), game, "hello")
    assert published == [(live.channel_for(game.pk), game.version)]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"phrase": "you_have_two_aces"}, "unknown_phrase"),
        ({"phrase": "hello", "to": "partner"}, "invalid"),
    ],
)
def test_never_free_text_never_to_a_partner_alone(
    client_for: Client, body: dict[str, str], code: str
) -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    refused = client_for(players[0]).post(f"/api/games/{game.pk}/phrases/", body, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, code)
    assert not TablePhrase.objects.exists()


def test_only_players_at_the_table_speak(client_for: Client) -> None:
    game = started_game()
    refused = say(client_for(UserFactory.create()), game, "hello")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_seated")
    assert say(client_for(UserFactory.create()), Game(pk=999_999), "hello").status_code == 404


def test_one_phrase_every_few_seconds_per_player(client_for: Client) -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    client = client_for(players[0])
    assert say(client, game, "hello").status_code == 201
    too_soon = say(client, game, "thanks")
    assert too_soon.status_code == 429
    assert too_soon.json()["code"] == "phrase_too_soon"
    assert 1 <= too_soon.json()["retry_after"] <= PHRASE_INTERVAL.seconds
    # Another player is not held back by it.
    assert say(client_for(players[1]), game, "hello").status_code == 201
    clock.advance(PHRASE_INTERVAL)
    assert say(client, game, "thanks").status_code == 201
    assert TablePhrase.objects.filter(user=players[0]).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_phrases_at_once_are_one_phrase_and_one_refusal() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    results = run_in_threads(
        lambda: services.say_phrase(game_id=game.pk, user=players[0], phrase="hello"),
        lambda: services.say_phrase(game_id=game.pk, user=players[0], phrase="sorry"),
    )
    refusals = [result for result in results if isinstance(result, Exception)]
    assert len(refusals) == 1 and getattr(refusals[0], "code", "") == "phrase_too_soon"
    assert TablePhrase.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_phrase_and_a_move_at_once_lose_neither() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    table = selectors.game_with_seats(game_id=game.pk)
    assert table is not None and table.game.turn_seat is not None
    mover = players[table.game.turn_seat]
    speaker_seat = (table.game.turn_seat + 1) % 4
    detail = selectors.game_detail(table=table, viewer=mover)

    results = run_in_threads(
        lambda: services.say_phrase(
            game_id=game.pk, user=players[speaker_seat], phrase="good_luck"
        ),
        lambda: services.make_move(
            game_id=game.pk,
            user=mover,
            version=detail["version"],
            action=choose(detail["legal_actions"]),
        ),
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    after = Game.objects.get(pk=game.pk)
    assert after.version == game.version + 1
    assert after.phrases_said == TablePhrase.objects.filter(game=game).count() == 1
    shown = APIClient()
    shown.force_authenticate(mover)
    phrases = shown.get(f"/api/games/{game.pk}/").json()["phrases"]
    assert [(row["seat"], row["phrase"]) for row in phrases] == [(speaker_seat, "good_luck")]


def test_the_answer_carries_the_latest_twenty_oldest_first(client_for: Client) -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    keys = list(PHRASES)
    for number in range(LATEST + 5):
        services.say_phrase(game_id=game.pk, user=players[number % 4], phrase=keys[number % 10])
        clock.advance(PHRASE_INTERVAL)
    shown = client_for(players[0]).get(f"/api/games/{game.pk}/").json()["phrases"]
    assert len(shown) == LATEST
    assert [row["phrase"] for row in shown] == [keys[number % 10] for number in range(5, 25)]


def test_a_player_mutes_the_others_phrases(client_for: Client) -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    services.say_phrase(game_id=game.pk, user=players[1], phrase="hello")
    client = client_for(players[0])
    assert client.patch("/api/me/", {"phrases_muted": True}, format="json").json()["phrases_muted"]
    players[0].refresh_from_db()
    client = client_for(players[0])
    services.say_phrase(game_id=game.pk, user=players[0], phrase="thanks")
    shown = client.get(f"/api/games/{game.pk}/").json()["phrases"]
    assert [(row["seat"], row["phrase"]) for row in shown] == [(0, "thanks")]
    others = client_for(players[1]).get(f"/api/games/{game.pk}/").json()["phrases"]
    assert len(others) == 2


def test_a_muted_player_says_nothing(client_for: Client) -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    User.objects.filter(pk=players[0].pk).update(muted_until=clock.now() + timedelta(days=1))
    refused = say(client_for(players[0]), game, "hello")
    assert (refused.status_code, refused.json()["code"]) == (403, "muted")
