"""Names others see (issue #11, finding 10): normalised, no invisible or reordering characters,
no look-alike usernames, and a muted player keeps their name."""

from datetime import timedelta

import pytest
from django.db import IntegrityError
from rest_framework.test import APIClient

from accounts.models import User
from accounts.names import skeleton
from club import clock
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def sign_up(username: str, display_name: str = "", email: str = ""):
    body = {
        "username": username,
        "password": "queen-of-spades-7",
        "email": email or f"{abs(hash(username))}@example.com",
    }
    if display_name:
        body["display_name"] = display_name
    return APIClient().post("/api/auth/register/", body, format="json")


@pytest.mark.parametrize(
    "look_alike",
    [
        "\u0410dmin",  # Cyrillic А
        "Adm\u0456n",  # Cyrillic і
        "\u0391dmin",  # Greek Α
        "ＡＤＭＩＮ",  # full width, NFKC: "ADMIN"
        "admin",  # case only
    ],
)
def test_a_look_alike_of_an_existing_username_is_taken(look_alike):
    UserFactory.create(username="Admin")

    response = sign_up(look_alike)

    assert response.status_code == 400
    assert response.json()["code"] == "username_taken"
    assert User.objects.count() == 1


def test_digits_and_capital_i_that_read_as_letters_are_look_alikes():
    assert skeleton("ADMIN") == skeleton("ADMlN") == skeleton("ADM1N")
    assert skeleton("Ol0g") == skeleton("OlOg")
    assert skeleton("olga") != skeleton("olya")


def test_names_are_stored_normalised():
    response = sign_up("ｏｌｇａ", display_name="  Ｏｌｇａ  ")

    assert response.status_code == 201
    user = User.objects.get()
    assert (user.username, user.display_name) == ("olga", "Olga")


@pytest.mark.parametrize("character", ["\u202e", "\u200b", "\u200d", "\x07", "\u2028", "\ufeff"])
def test_display_names_with_invisible_or_reordering_characters_are_refused(character):
    user = UserFactory.create()
    client = APIClient()
    client.force_authenticate(user)

    for response in (
        sign_up("newcomer", display_name=f"ev{character}il"),
        client.patch("/api/me/", {"display_name": f"ev{character}il"}, format="json"),
    ):
        assert response.status_code == 400
        assert response.json()["code"] in {"invalid_name", "invalid"}
    user.refresh_from_db()
    assert character not in user.display_name


def test_a_muted_player_cannot_change_the_display_name():
    user = UserFactory.create(display_name="Quiet")
    User.objects.filter(pk=user.pk).update(muted_until=clock.now() + timedelta(days=1))
    client = APIClient()
    client.force_authenticate(User.objects.get(pk=user.pk))

    response = client.patch("/api/me/", {"display_name": "YOU ALL ARE IDIOTS"}, format="json")

    assert response.status_code == 403
    assert response.json()["code"] == "muted"
    assert User.objects.get(pk=user.pk).display_name == "Quiet"


def test_the_database_refuses_a_look_alike_made_any_other_way():
    UserFactory.create(username="Admin")

    with pytest.raises(IntegrityError):
        UserFactory.create(username="\u0410dmin")
