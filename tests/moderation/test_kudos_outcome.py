"""The giver learns whether their kudos counted, and why not, in the afterword's answer."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Game
from moderation import policy
from tests.factories import UserFactory
from tests.moderation.conftest import client_for, make_veteran, over_game

pytestmark = pytest.mark.django_db


def afterword(giver: User, game: Game, *, to: str = "partner", language: str = "ru") -> Any:
    response = client_for(giver).post(
        f"/api/games/{game.pk}/afterwords/",
        {"to": to, "text": "Спасибо!"},
        format="json",
        headers={"accept-language": language},
    )
    assert response.status_code == 201, response.json()
    return response.json()


def game_with_partner(giver: User, partner: User | None = None) -> Game:
    partner = partner or UserFactory.create()
    return over_game([giver, UserFactory.create(), partner, UserFactory.create()])


def test_counted_kudos_say_so() -> None:
    giver = make_veteran(UserFactory.create())

    kudos = afterword(giver, game_with_partner(giver), language="en")["kudos"]

    assert kudos == {
        "counted": True,
        "reason": "counted",
        "message": "Your kudos counted: your partner's Authority went up.",
    }


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_new_account_is_told_its_kudos_do_not_count_yet(language: str) -> None:
    giver = make_veteran(UserFactory.create())
    User.objects.filter(pk=giver.pk).update(date_joined=timezone.now() - timedelta(days=6))

    kudos = afterword(giver, game_with_partner(giver), language=language)["kudos"]

    assert (kudos["counted"], kudos["reason"]) == (False, "giver_too_new")
    expected = "less than 7 days old" if language == "en" else "меньше 7 дней"
    assert expected in kudos["message"]


def test_a_player_with_few_games_is_told_why() -> None:
    giver = UserFactory.create()
    User.objects.filter(pk=giver.pk).update(date_joined=timezone.now() - timedelta(days=60))

    kudos = afterword(giver, game_with_partner(giver), language="en")["kudos"]

    assert (kudos["counted"], kudos["reason"]) == (False, "giver_few_games")
    assert f"fewer than {policy.KUDOS_GIVER_MIN_FINISHED_GAMES} finished games" in kudos["message"]


def test_the_pair_limit_is_explained() -> None:
    giver, partner = make_veteran(UserFactory.create()), UserFactory.create()
    for _ in range(policy.KUDOS_PAIR_LIMIT):
        assert afterword(giver, game_with_partner(giver, partner))["kudos"]["counted"]

    kudos = afterword(giver, game_with_partner(giver, partner))["kudos"]

    assert (kudos["counted"], kudos["reason"]) == (False, "pair_limit")
    counted = policy.KUDOS_POINTS * policy.KUDOS_PAIR_LIMIT
    assert User.objects.get(pk=partner.pk).authority == counted


def test_table_words_carry_no_kudos() -> None:
    giver = make_veteran(UserFactory.create())

    assert afterword(giver, game_with_partner(giver), to="table")["kudos"] is None
