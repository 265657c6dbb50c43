from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services import count_game_over
from notifications.selectors import settings_for
from tests.factories import DEFAULT_PASSWORD, GameFactory, SeatFactory, UserFactory

pytestmark = pytest.mark.django_db

ME = "/api/me/"


def test_me_shows_the_own_profile(user_client, user):
    response = user_client.get(ME)

    assert response.status_code == 200
    body = response.json()
    assert body["id"] == user.pk
    assert body["username"] == user.username
    assert body["display_name"] == user.display_name
    assert body["email"] == user.email
    assert body["language"] == "ru"
    assert body["authority"] == 0
    assert body["games"] == {"played": 0, "won": 0, "abandoned": 0}
    assert body["muted_until"] is None
    assert body["suspended_until"] is None
    assert body["notification_settings"] == settings_for(user=user)
    assert body["notification_settings"]["digest"] is False


def test_games_count_finished_won_and_abandoned(user_client, user):
    won = GameFactory.create(status=Game.Status.FINISHED, winner_team=0)
    lost = GameFactory.create(status=Game.Status.FINISHED, winner_team=0)
    walked_out = GameFactory.create(
        status=Game.Status.ABANDONED, winner_team=0, abandoned_by_seat=3
    )
    for game, seat in ((won, 2), (lost, 1), (walked_out, 3)):
        count_game_over(game=game, seats=[SeatFactory.create(game=game, user=user, seat=seat)])
    SeatFactory.create(game=GameFactory.create(status=Game.Status.ACTIVE), user=user, seat=0)

    expected = {"played": 3, "won": 1, "abandoned": 1}
    assert user_client.get(ME).json()["games"] == expected
    assert user_client.get(f"/api/users/{user.pk}/").json()["games"] == expected


def test_me_shows_only_sanctions_in_force(user_client, user):
    now = timezone.now()
    user.muted_until = now + timedelta(days=3)
    user.suspended_until = now - timedelta(days=1)
    user.save()

    body = user_client.get(ME).json()

    assert body["muted_until"] == user.muted_until.isoformat().replace("+00:00", "Z")
    assert body["suspended_until"] is None


def test_me_needs_authentication(api_client):
    response = api_client.get(ME)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_patch_me_changes_name_email_and_language(user_client, user):
    response = user_client.patch(
        ME,
        {
            "display_name": "Дама пик",
            "email": "queen@EXAMPLE.com",
            "language": "en",
            "password": DEFAULT_PASSWORD,
        },
        format="json",
    )

    assert response.status_code == 200
    user.refresh_from_db()
    assert (user.display_name, user.email, user.language) == (
        "Дама пик",
        "queen@example.com",
        "en",
    )
    assert response.json()["display_name"] == "Дама пик"


@pytest.mark.parametrize("password", [None, "not-my-password"])
def test_a_new_email_needs_the_current_password(user_client, user, password):
    body = {"email": "thief@example.com", "display_name": "Thief"}
    if password is not None:
        body["password"] = password

    response = user_client.patch(ME, body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "wrong_password"
    user.refresh_from_db()
    assert (user.email, user.display_name) != ("thief@example.com", "Thief")


def test_the_same_email_again_needs_no_password(user_client, user):
    response = user_client.patch(ME, {"email": user.email.upper()}, format="json")

    assert response.status_code == 200


def test_patch_me_cannot_touch_username_authority_or_sanctions(user_client, user):
    response = user_client.patch(
        ME,
        {"username": "root", "authority": 999, "suspended_until": None, "display_name": "X"},
        format="json",
    )

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.username != "root"
    assert user.authority == 0
    assert user.display_name == "X"


@pytest.mark.parametrize(
    "body",
    [{"display_name": ""}, {"display_name": "x" * 41}, {"email": "nope"}, {"language": "de"}],
)
def test_patch_me_validates(user_client, body):
    response = user_client.patch(ME, body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_put_me_is_not_allowed(user_client):
    assert user_client.put(ME, {}, format="json").status_code == 405


def test_public_card_hides_email_and_sanctions(user_client):
    other = UserFactory.create(authority=12, muted_until=timezone.now() + timedelta(days=1))

    response = user_client.get(f"/api/users/{other.pk}/")

    assert response.status_code == 200
    assert response.json() == {
        "id": other.pk,
        "display_name": other.display_name,
        "authority": 12,
        "games": {"played": 0, "won": 0, "abandoned": 0},
        "ratings": [],
        "is_bot": False,
        "bot_level": "",
        "away_until": None,
        "away_reason": None,
        "online": False,
        "following": False,
        "blocked": False,
    }


@pytest.mark.parametrize("user_id", ["987654", "9" * 30])  # the second is beyond bigint
def test_public_card_of_a_missing_user_is_404(user_client, user_id):
    response = user_client.get(f"/api/users/{user_id}/")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_public_card_needs_authentication(api_client, user):
    assert api_client.get(f"/api/users/{user.pk}/").status_code == 401


def test_an_email_another_account_uses_is_refused(user_client, user):
    other = UserFactory.create(email="queen@example.com")

    response = user_client.patch(
        ME, {"email": "Queen@Example.com", "password": DEFAULT_PASSWORD}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "email_taken"
    user.refresh_from_db()
    assert user.email != other.email
