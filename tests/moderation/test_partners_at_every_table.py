"""Partner afterwords and kudos follow the engine's partnerships at every table (#13): none where
each plays alone, the one partner of a pair, a chosen one of two in a team of three."""

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Game
from moderation.models import Afterword
from tests.factories import GameFactory, SeatFactory, UserFactory
from tests.moderation.conftest import client_for

pytestmark = pytest.mark.django_db


def over_game_at(players: list[User], rules: dict) -> Game:
    game = GameFactory.create(
        created_by=players[0],
        rules=rules,
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
    )
    for seat, player in enumerate(players):
        SeatFactory.create(game=game, user=player, seat=seat)
    return game


def page_of(user: User, game: Game) -> str:
    browser = Client()
    browser.force_login(user)
    answer = browser.get(f"/games/{game.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def afterword(user: User, game: Game, **body: object):
    return client_for(user).post(
        f"/api/games/{game.pk}/afterwords/", {"text": "Спасибо!", **body}, format="json"
    )


@pytest.mark.parametrize("players", [2, 3])
def test_where_each_plays_alone_there_is_no_partner_only_the_table(players):
    seated = UserFactory.create_batch(players)
    game = over_game_at(seated, {"players": players})
    refused = afterword(seated[0], game, to="partner")
    assert refused.status_code == 400 and refused.json()["code"] == "no_partner"
    assert afterword(seated[0], game, to="table").status_code == 201
    html = page_of(seated[0], game)
    assert "data-afterwords" in html and 'value="partner"' not in html


def test_three_pairs_at_six_each_thanks_the_partner_across_two_seats():
    seated = UserFactory.create_batch(6)
    game = over_game_at(seated, {"players": 6, "teams": 3})
    assert afterword(seated[1], game, to="partner").status_code == 201
    sent = Afterword.objects.get(author=seated[1])
    assert sent.recipient_id == seated[4].pk  # seats 1 and 4 are a pair


def test_two_teams_of_three_name_which_partner():
    seated = UserFactory.create_batch(6)
    game = over_game_at(seated, {"players": 6, "teams": 2})
    unnamed = afterword(seated[0], game, to="partner")
    assert unnamed.status_code == 400 and unnamed.json()["code"] == "invalid_partner"
    opponent = afterword(seated[0], game, to="partner", partner=seated[1].pk)
    assert opponent.status_code == 400 and opponent.json()["code"] == "invalid_partner"
    named = afterword(seated[0], game, to="partner", partner=seated[4].pk)
    assert named.status_code == 201, named.json()
    assert named.json()["recipient"] == seated[4].pk
    # The page offers the choice between the two partners.
    other = page_of(seated[2], game)
    assert "data-partner-choice" in other
    assert f'value="{seated[0].pk}"' in other and f'value="{seated[4].pk}"' in other
