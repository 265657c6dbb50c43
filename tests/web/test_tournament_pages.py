"""The tournaments' pages (issue 38, point 4) through Django's test client: the list and its
form, a tournament's page (entering as a pair, starting, the rounds with their games, the
standings), refusals shown as messages, and the lobby's block of tournament games to move in."""

import pytest
from django.test import Client

from accounts.models import User
from tests.factories import UserFactory
from tests.tournaments.conftest import (
    enter,
    finish_game,
    open_tournament,
    round_games,
    start,
    turn_of,
)
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def signed_in(user: User, language: str = "ru") -> Client:
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def test_the_list_shows_open_running_and_finished_and_opens_one() -> None:
    open_tournament(name="Весенний кубок")
    finished = open_tournament(name="Зимний кубок")
    Tournament.objects.filter(pk=finished.pk).update(status="finished")
    anna = UserFactory.create()
    client = signed_in(anna)
    page = client.get("/tournaments/").content.decode()
    assert "Весенний кубок" in page and "Зимний кубок" in page
    assert 'data-tournament-list="open"' in page and 'data-tournament-list="finished"' in page
    answer = client.post(
        "/tournaments/new/",
        {
            "name": "Вечерний",
            "mode": "live",
            "format": "swiss",
            "rounds": "4",
            "table": "classic",
            "partners": "rotating",
            "deals": "2",
            "max_entries": "12",
            "duplicate": "on",
        },
    )
    created = Tournament.objects.get(name="Вечерний")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{created.pk}/"
    assert (created.mode, created.partners, created.deals, created.duplicate) == (
        "live",
        "rotating",
        2,
        True,
    )


def test_a_bad_form_says_why_and_opens_nothing() -> None:
    client = signed_in(UserFactory.create(), "en")
    answer = client.post(
        "/tournaments/new/",
        {
            "name": "Two",
            "mode": "async",
            "format": "swiss",
            "table": "two",
            "partners": "fixed",
            "rounds": "3",
            "deals": "1",
            "max_entries": "8",
        },
    )
    assert answer.status_code == 400
    assert "Fixed pairs play at four" in answer.content.decode()
    assert not Tournament.objects.exists()


def test_enter_as_a_pair_then_start_and_see_the_round_and_standings() -> None:
    tournament = open_tournament(rounds=2)
    anna, boris = UserFactory.create_batch(2)
    client = signed_in(anna)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Партнёр (имя пользователя)" in page
    entered = client.post(f"/tournaments/{tournament.pk}/enter/", {"partner": boris.username})
    assert entered.status_code == 302
    assert Entry.objects.get(tournament=tournament).players.count() == 2
    enter(tournament, 2)
    refused = signed_in(anna).post(f"/tournaments/{tournament.pk}/start/", follow=True)
    assert "Начать турнир может только тот" in refused.content.decode()
    creator = signed_in(tournament.created_by)
    started = creator.post(f"/tournaments/{tournament.pk}/start/", follow=True).content.decode()
    assert "Турнир начался" in started and 'data-round="1"' in started
    games = round_games(tournament, 1)
    assert all(f'href="/games/{game.pk}/"' in started for game in games)
    for game in games:
        finish_game(game, [700, 300])
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-standings="live"' in page and "Пропускают тур" in page


def test_a_stranger_sees_a_tournament_but_enters_only_signed_in() -> None:
    tournament = open_tournament()
    page = Client().get(f"/tournaments/{tournament.pk}/")
    assert page.status_code == 200 and "Войдите" in page.content.decode()
    assert Client().get("/tournaments/12345678/").status_code == 404


def test_the_lobby_block_lists_your_tournament_turn() -> None:
    tournament = open_tournament(rounds=1, name="Кубок клуба")
    enter(tournament, 2)
    start(tournament)
    [game] = round_games(tournament, 1)
    mover = game.seats.get(seat=turn_of(game)).user
    lobby = signed_in(mover).get("/").content.decode()
    assert 'data-tournament-turns="1"' in lobby
    assert f'data-tournament-game="{game.pk}"' in lobby and "Кубок клуба · тур 1" in lobby
    other = game.seats.exclude(seat=turn_of(game)).first()
    assert other is not None
    assert 'data-tournament-turns="0"' in signed_in(other.user).get("/").content.decode()
