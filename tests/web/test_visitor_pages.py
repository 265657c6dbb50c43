"""A visitor (signed out) on every page of tournaments (issue 38) and of people (issue 37): a
page, or the log-in with the way back, never a server error. Times shown to a visitor are in
the club's time zone (Moscow), since a visitor has none of their own."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client

from accounts.models import User
from club import clock
from tests.factories import UserFactory
from tests.tournaments.conftest import enter, finish_game, open_tournament, round_games, start
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def tournaments_in_every_state() -> list[Tournament]:
    """Open (starting by itself tomorrow), running, finished and cancelled."""
    starting = open_tournament(name="Завтрашний", starts_at=clock.now() + timedelta(days=1))
    running = open_tournament(name="Идущий", rounds=2)
    enter(running, 3)
    start(running)
    finished = open_tournament(name="Сыгранный", rounds=1)
    enter(finished, 2)
    start(finished)
    for game in round_games(finished, 1):
        finish_game(game, [700, 300])
    Tournament.objects.filter(pk=finished.pk).update(
        status=Tournament.Status.FINISHED, finished_at=clock.now()
    )
    cancelled = open_tournament(name="Отменённый")
    Tournament.objects.filter(pk=cancelled.pk).update(
        status=Tournament.Status.CANCELLED, finished_at=clock.now()
    )
    return [starting, running, finished, cancelled]


def test_a_visitor_sees_the_tournaments_and_each_tournament() -> None:
    tournaments = tournaments_in_every_state()
    visitor = Client()
    listed = visitor.get("/tournaments/")
    assert listed.status_code == 200
    page = listed.content.decode()
    assert all(tournament.name in page for tournament in tournaments)
    # 00:00 UTC tomorrow and so on: the start is shown in Moscow time, three hours on.
    starts = tournaments[0].starts_at
    assert starts is not None
    assert f"{(starts + timedelta(hours=3)):%H:%M}" in page
    for tournament in tournaments:
        answer = visitor.get(f"/tournaments/{tournament.pk}/")
        assert answer.status_code == 200, tournament.name
        assert tournament.name in answer.content.decode()
    running = tournaments[1]
    assert 'data-round="1"' in visitor.get(f"/tournaments/{running.pk}/").content.decode()
    assert visitor.get("/tournaments/99999999/").status_code == 404


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/tournaments/new/"),
        ("post", "/tournaments/new/"),
        ("post", "/tournaments/{id}/enter/"),
        ("post", "/tournaments/{id}/leave/"),
        ("post", "/tournaments/{id}/start/"),
        ("get", "/tournaments/{id}/enter/"),
        ("get", "/following/"),
        ("post", "/following/"),
        ("post", "/users/{player}/follow/"),
        ("post", "/users/{player}/block/"),
        ("get", "/users/{player}/block/"),
    ],
)
def test_a_visitor_is_sent_to_log_in_and_back(method: str, path: str) -> None:
    tournament = open_tournament()
    player = UserFactory.create()
    path = path.format(id=tournament.pk, player=player.pk)
    answer = getattr(Client(), method)(path)
    assert answer.status_code == 302
    assert answer["Location"] == f"/login/?next={path}"


def test_a_visitor_sees_a_players_card_even_when_the_player_is_away() -> None:
    player = UserFactory.create()
    User.objects.filter(pk=player.pk).update(
        vacation_start=clock.now() - timedelta(days=1),
        vacation_until=clock.now() + timedelta(days=3),
        last_seen_at=clock.now(),
    )
    answer = Client().get(f"/users/{player.pk}/")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "data-away-until" in page and "MSK" in page
    # Following and blocking are a member's.
    assert f'action="/users/{player.pk}/follow/"' not in page


def test_no_template_reads_the_users_own_time_zone() -> None:
    """A filter's argument that a visitor lacks (`user.time_zone`) fails the page: templates
    read `time_zone`, the viewer's or the club's (web.context_processors.club)."""
    templates = Path(__file__).resolve().parents[2] / "web" / "templates"
    readers = [
        path.name for path in templates.rglob("*.html") if "user.time_zone" in path.read_text()
    ]
    assert readers == []
