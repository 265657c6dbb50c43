"""A tournament's page follows it live (issue 38, point 4): every change it shows moves
`Tournament.version` and announces it on the tournament's channel after commit (the table
pages' pub/sub, games.live); the page's fragment answers 304 while the version stands."""

from typing import Any

import pytest
from django.test import Client

from games import live
from games import services as game_services
from games.models import Game
from tests.factories import UserFactory
from tests.tournaments.conftest import enter, open_tournament, round_games, start
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def announced(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    published: list[tuple[str, int]] = []
    monkeypatch.setattr(
        live, "_publish", lambda channel, version: published.append((channel, version))
    )
    monkeypatch.setattr("django.conf.settings.LIVE_EVENTS", True)
    return published


def version_of(tournament: Tournament) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)


def test_entries_the_start_and_a_game_played_to_its_end_move_the_page_on(
    announced: list[tuple[str, int]], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = open_tournament(rounds=2)
    channel = live.topic_channel("tournament", tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        enter(tournament, 3)
    assert version_of(tournament) == 3
    assert announced == [(channel, 1), (channel, 2), (channel, 3)]
    with django_capture_on_commit_callbacks(execute=True):
        start(tournament)
    assert version_of(tournament) == 4 and announced[-1] == (channel, 4)
    [game] = round_games(tournament, 1)
    # The bots play it out through the games' own end (games.signals.game_over).
    with django_capture_on_commit_callbacks(execute=True):
        assert game_services.play_out(game_id=game.pk)
    assert Game.objects.get(pk=game.pk).is_over
    assert version_of(tournament) == 5
    assert [(c, v) for c, v in announced if c == channel][-1] == (channel, 5)


def test_a_game_outside_tournaments_moves_no_tournament(
    announced: list[tuple[str, int]], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = open_tournament()
    player = UserFactory.create()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.play_with_bots(user=player, length="deal")
        game_services.play_out(game_id=game.pk)
    assert Game.objects.get(pk=game.pk).is_over
    assert version_of(tournament) == 0
    assert not [channel for channel, _ in announced if ":tournament:" in channel]


def test_the_fragment_is_304_until_the_tournament_changes() -> None:
    tournament = open_tournament(rounds=2, name="Кубок")
    enter(tournament, 3)
    start(tournament)
    visitor = Client()
    url = f"/tournaments/{tournament.pk}/live/"
    first = visitor.get(url)
    assert first.status_code == 200
    body = first.content.decode()
    assert 'data-live-part="state"' in body and 'data-live-part="progress"' in body
    assert 'data-round="1"' in body and "<form" not in body
    assert visitor.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # Another viewer (or language) has a fragment of their own.
    member = Client()
    member.force_login(UserFactory.create())
    assert member.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    [game] = round_games(tournament, 1)
    game_services.play_out(game_id=game.pk)
    again = visitor.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert visitor.get("/tournaments/99999999/live/").status_code == 404


def test_the_page_names_its_fragment_and_stream() -> None:
    tournament = open_tournament()
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'data-fragment-url="/tournaments/{tournament.pk}/live/"' in page
    assert f'data-version="{version_of(tournament)}"' in page
    # Without the ASGI server's stream (WSGI, or no Redis) the path says so and the page polls.
    assert Client().get(f"/tournaments/{tournament.pk}/events/").status_code == 503
