"""Filing reports (R-CLUB-4): who may report whom, duplicates, the daily limit."""

from datetime import timedelta

import pytest

from accounts.models import User
from club import clock
from games.models import Game
from moderation import policy
from moderation.models import Afterword, Report
from tests.factories import UserFactory
from tests.moderation.conftest import client_for, file_report, over_game

pytestmark = pytest.mark.django_db


def test_a_player_reports_another_and_gets_a_minimal_receipt(
    players: list[User], game: Game
) -> None:
    response = file_report(players[0], game, players[1], reason="mockery")

    assert response.status_code == 201, response.json()
    report = Report.objects.get()
    assert response.json() == {"id": report.pk, "status": "open"}
    assert (report.reporter, report.accused, report.reason) == (players[0], players[1], "mockery")
    assert report.due_at == report.created_at + policy.REPORT_SLA


def test_the_evidence_afterword_must_be_the_accuseds_and_readable_by_the_reporter(
    players: list[User], game: Game
) -> None:
    to_reporter = Afterword.objects.create(
        game=game, author=players[2], to="partner", recipient=players[0], text="Ну ты и игрок…"
    )
    to_someone_else = Afterword.objects.create(
        game=game, author=players[1], to="partner", recipient=players[3], text="секрет"
    )

    ok = file_report(players[0], game, players[2], afterword=to_reporter.pk)
    wrong = file_report(players[0], game, players[1], afterword=to_someone_else.pk)

    assert ok.status_code == 201
    assert Report.objects.get().afterword == to_reporter
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid_afterword"


@pytest.mark.parametrize("status", [Game.Status.WAITING, Game.Status.ACTIVE])
def test_only_after_the_game(players: list[User], status: str) -> None:
    game = over_game(players, status=status)

    response = file_report(players[0], game, players[1])

    assert response.status_code == 409
    assert response.json()["code"] == "game_not_over"


def test_only_players_report_and_only_about_another_player(players: list[User], game: Game) -> None:
    stranger = UserFactory.create()

    assert file_report(stranger, game, players[1]).json()["code"] == "not_a_player"
    assert file_report(players[0], game, stranger).json()["code"] == "invalid_accused"
    assert file_report(players[0], game, players[0]).json()["code"] == "invalid_accused"
    assert not Report.objects.exists()


def test_one_report_per_reporter_accused_and_game(players: list[User], game: Game) -> None:
    assert file_report(players[0], game, players[1]).status_code == 201

    again = file_report(players[0], game, players[1], reason="other")

    assert again.status_code == 409
    assert again.json()["code"] == "duplicate_report"
    # Another accused of the same game, or another reporter, is a new report.
    assert file_report(players[0], game, players[2]).status_code == 201
    assert file_report(players[3], game, players[1]).status_code == 201


def test_a_daily_limit_per_reporter(players: list[User]) -> None:
    reporter = players[0]
    for _ in range(policy.REPORTS_PER_DAY):
        game = over_game([reporter, *UserFactory.create_batch(3)])
        accused = game.seats.get(seat=1).user
        assert file_report(reporter, game, accused).status_code == 201
    game = over_game([reporter, *UserFactory.create_batch(3)])

    response = file_report(reporter, game, game.seats.get(seat=1).user)

    assert response.status_code == 429
    assert response.json()["code"] == "report_limit"

    clock.advance(timedelta(days=1, minutes=1))
    assert file_report(reporter, game, game.seats.get(seat=1).user).status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {"reason": "boring"},
        {"text": "x" * (policy.REPORT_TEXT_MAX_LENGTH + 1)},
        {"accused": "nobody"},
        {"afterword": "first"},
    ],
)
def test_bad_input_is_a_400(players: list[User], game: Game, body: dict) -> None:
    valid = {"game": game.pk, "accused": players[1].pk, "reason": "rudeness", "text": ""}

    response = client_for(players[0]).post("/api/reports/", {**valid, **body}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_the_reporter_sees_their_own_reports(players: list[User], game: Game) -> None:
    file_report(players[0], game, players[1])

    mine = client_for(players[0]).get("/api/reports/mine/").json()
    theirs = client_for(players[1]).get("/api/reports/mine/").json()

    assert [item["accused"] for item in mine["results"]] == [players[1].pk]
    assert theirs["results"] == []


@pytest.mark.parametrize("url", ["/api/reports/", "/api/games/1/afterwords/"])
def test_bodies_go_through_the_apis_json_parser(players: list[User], url: str) -> None:
    too_deep = "[" * 100 + "]" * 100

    response = client_for(players[0]).post(url, too_deep, content_type="application/json")

    assert (response.status_code, response.json()["code"]) == (400, "malformed_json")
