"""Afterwords after a game (R-CLUB-3): who may write, when, and who may read them."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Game
from moderation.models import Afterword
from social import services as social_services
from tests.factories import UserFactory
from tests.moderation.conftest import NotifyRecorder, client_for, over_game

pytestmark = pytest.mark.django_db


def post_afterword(user: User, game: Game, to: str, text: str = "Спасибо за игру!"):
    return client_for(user).post(
        f"/api/games/{game.pk}/afterwords/", {"to": to, "text": text}, format="json"
    )


def test_partner_afterword_goes_to_the_partner_and_notifies(
    players: list[User], game: Game, notifications: NotifyRecorder
) -> None:
    response = post_afterword(players[1], game, "partner")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["to"] == "partner"
    assert body["recipient"] == players[3].pk  # seat 1's partner sits at seat 3
    [sent] = notifications.of_kind("kudos_received")
    assert sent.user_id == players[3].pk
    assert sent.payload["afterword_id"] == body["id"]


def test_table_afterword_has_no_recipient(players: list[User], game: Game) -> None:
    response = post_afterword(players[0], game, "table", "Хорошая была партия, всем спасибо")

    assert response.status_code == 201
    assert response.json()["recipient"] is None


def test_afterwords_also_follow_an_abandoned_game(players: list[User]) -> None:
    game = over_game(players, status=Game.Status.ABANDONED)

    assert post_afterword(players[0], game, "partner").status_code == 201


def test_one_afterword_each_way_per_game(players: list[User], game: Game) -> None:
    assert post_afterword(players[0], game, "partner").status_code == 201
    assert post_afterword(players[0], game, "table").status_code == 201

    again = post_afterword(players[0], game, "partner", "ещё раз")

    assert again.status_code == 409
    assert again.json()["code"] == "afterword_exists"


@pytest.mark.parametrize("status", [Game.Status.WAITING, Game.Status.ACTIVE])
def test_not_before_the_game_is_over(players: list[User], status: str) -> None:
    game = over_game(players, status=status)
    Game.objects.filter(pk=game.pk).update(finished_at=None)

    response = post_afterword(players[0], game, "partner")

    assert response.status_code == 409
    assert response.json()["code"] == "game_not_over"


def test_not_after_seven_days(players: list[User]) -> None:
    game = over_game(players, finished_at=timezone.now() - timedelta(days=7, minutes=1))

    response = post_afterword(players[0], game, "partner")

    assert response.status_code == 400
    assert response.json()["code"] == "afterword_window_closed"


def test_only_players_of_the_game(game: Game) -> None:
    stranger = UserFactory.create()

    response = post_afterword(stranger, game, "table")

    assert response.status_code == 403
    assert response.json()["code"] == "not_a_player"
    listing = client_for(stranger).get(f"/api/games/{game.pk}/afterwords/")
    assert listing.status_code == 403


def test_muted_players_are_refused(players: list[User], game: Game) -> None:
    User.objects.filter(pk=players[0].pk).update(muted_until=timezone.now() + timedelta(days=1))

    response = post_afterword(players[0], game, "partner")

    assert response.status_code == 403
    assert response.json()["code"] == "muted"
    assert not Afterword.objects.exists()


def test_a_mute_that_has_ended_does_not_refuse(players: list[User], game: Game) -> None:
    User.objects.filter(pk=players[0].pk).update(muted_until=timezone.now() - timedelta(minutes=1))

    assert post_afterword(players[0], game, "partner").status_code == 201


@pytest.mark.parametrize("text", ["", "x" * 281])
def test_text_is_short_and_not_empty(players: list[User], game: Game, text: str) -> None:
    response = post_afterword(players[0], game, "partner", text)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_unknown_direction_is_a_400(players: list[User], game: Game) -> None:
    assert post_afterword(players[0], game, "opponents").status_code == 400


def test_unknown_game_is_a_404(players: list[User]) -> None:
    response = client_for(players[0]).post(
        "/api/games/999999/afterwords/", {"to": "table", "text": "hi"}, format="json"
    )

    assert response.status_code == 404


def test_partner_words_are_seen_only_by_author_and_partner(players: list[User], game: Game) -> None:
    post_afterword(players[0], game, "partner", "Ты лучший партнёр")
    post_afterword(players[1], game, "table", "Всем спасибо")

    def texts_seen_by(user: User) -> set[str]:
        response = client_for(user).get(f"/api/games/{game.pk}/afterwords/")
        assert response.status_code == 200
        return {item["text"] for item in response.json()}

    assert texts_seen_by(players[0]) == {"Ты лучший партнёр", "Всем спасибо"}
    assert texts_seen_by(players[2]) == {"Ты лучший партнёр", "Всем спасибо"}
    assert texts_seen_by(players[1]) == {"Всем спасибо"}
    assert texts_seen_by(players[3]) == {"Всем спасибо"}


def test_phrases_in_both_languages(players: list[User]) -> None:
    client = client_for(players[0])

    russian = client.get("/api/afterwords/phrases/").json()
    english = client.get("/api/afterwords/phrases/", headers={"Accept-Language": "en"}).json()

    assert russian and all(item["ru"] and item["en"] for item in russian)
    assert russian[0]["text"] == russian[0]["ru"]
    assert english[0]["text"] == english[0]["en"]


def test_errors_speak_english_on_request(players: list[User]) -> None:
    game = over_game(players, status=Game.Status.ACTIVE)

    response = client_for(players[0]).post(
        f"/api/games/{game.pk}/afterwords/",
        {"to": "table", "text": "hi"},
        format="json",
        headers={"Accept-Language": "en"},
    )

    assert response.json()["detail"] == "The game is not over yet."


@pytest.mark.parametrize("who_blocks", ["author", "partner"])
def test_no_words_between_players_apart(players: list[User], game: Game, who_blocks: str) -> None:
    """A block either way (issue 37): no warm words to the partner, and the table words of
    one are not shown to the other."""
    author, partner = players[1], players[3]
    blocker, blocked = (author, partner) if who_blocks == "author" else (partner, author)
    social_services.block(user=blocker, player_id=blocked.pk)
    refused = post_afterword(author, game, "partner")
    assert (refused.status_code, refused.json()["code"]) == (403, "blocked")
    assert post_afterword(author, game, "table", "Всем спасибо").status_code == 201
    shown = client_for(partner).get(f"/api/games/{game.pk}/afterwords/").json()
    assert [row["author"] for row in shown if row["to"] == "table"] == []
    seen_by_others = client_for(players[0]).get(f"/api/games/{game.pk}/afterwords/").json()
    assert len(seen_by_others) == 1
