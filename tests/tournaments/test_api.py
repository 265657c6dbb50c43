"""The tournaments API (CONTRACT §7): opening, listing, entering and leaving, starting; bad
input refused with a code and nothing half-made (issue 38, point 6)."""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from games.models import Game
from tests.factories import UserFactory
from tests.tournaments.conftest import enter, open_tournament
from tournaments.models import Entry, EntryPlayer, Round, Tournament

pytestmark = pytest.mark.django_db

Client = Callable[[User], APIClient]


@pytest.fixture
def client_for() -> Client:
    def make(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


def create(client: APIClient, **fields: Any) -> Any:
    body = {"name": "Кубок", "mode": "async", "format": "swiss", "rounds": 3, **fields}
    return client.post("/api/tournaments/", body, format="json")


def test_open_a_tournament_and_read_it_back(client_for: Client) -> None:
    anna = UserFactory.create()
    answer = create(client_for(anna), deals=2, max_entries=8, duplicate=False)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert {
        key: body[key]
        for key in ("name", "status", "format", "duplicate", "partners", "deals", "round_count")
    } == {
        "name": "Кубок",
        "status": "open",
        "format": "swiss",
        "duplicate": False,
        "partners": "fixed",
        "deals": 2,
        "round_count": 3,
    }
    assert body["rules"]["deals"] == 2 and body["rules"]["target"] is None
    assert body["entries"] == [] and body["rounds"] == [] and body["standings"] == []
    assert body["rated"] is True and body["your_entry"] is None
    again = client_for(UserFactory.create()).get(f"/api/tournaments/{body['id']}/")
    assert again.status_code == 200 and again.json()["id"] == body["id"]


def test_the_list_filters_by_status(client_for: Client) -> None:
    open_one = open_tournament(name="Открытый")
    running = open_tournament(name="Идёт")
    Tournament.objects.filter(pk=running.pk).update(status="running")
    client = client_for(UserFactory.create())
    listed = client.get("/api/tournaments/?status=open").json()
    assert [row["id"] for row in listed["results"]] == [open_one.pk]
    assert listed["results"][0]["entry_count"] == 0
    everything = client.get("/api/tournaments/").json()["results"]
    assert {row["id"] for row in everything} == {open_one.pk, running.pk}
    refused = client.get("/api/tournaments/?status=later")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"rounds": None}, "invalid"),
        ({"rules": {"players": 3}}, "invalid_rules"),
        ({"rules": {"target": 5000}}, "invalid_rules"),
        ({"rules": {"players": 2}, "partners": "fixed"}, "invalid_partners"),
        ({"rules": {"players": 6, "teams": 2}, "partners": "rotating"}, "invalid_partners"),
        ({"duplicate": True, "max_entries": 3}, "invalid"),
        ({"deals": 13}, "invalid"),
        ({"round_minutes": 5}, "invalid"),
        ({"name": "   "}, "invalid"),
        ({"starts_at": "2001-01-01T00:00:00Z"}, "invalid"),
    ],
)
def test_a_bad_tournament_is_refused_and_nothing_is_made(
    client_for: Client, fields: dict[str, Any], code: str
) -> None:
    answer = create(client_for(UserFactory.create()), **fields)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == code
    assert not Tournament.objects.exists()


def test_a_pair_enters_together_and_either_takes_the_entry_out(client_for: Client) -> None:
    tournament = open_tournament()
    anna, boris = UserFactory.create_batch(2)
    joined = client_for(anna).post(
        f"/api/tournaments/{tournament.pk}/join/", {"partner": boris.pk}, format="json"
    )
    assert joined.status_code == 200, joined.json()
    body = joined.json()
    assert body["entries"][0]["players"] == [anna.pk, boris.pk]
    assert body["your_entry"] == body["entries"][0]["id"]
    left = client_for(boris).delete(f"/api/tournaments/{tournament.pk}/join/")
    assert left.status_code == 200 and left.json()["entries"] == []
    assert not EntryPlayer.objects.exists()


def test_entering_refusals_have_codes_and_leave_nothing_half_made(client_for: Client) -> None:
    tournament = open_tournament(max_entries=2)
    anna, boris, vera, gleb, bot = UserFactory.create_batch(5)
    bot.bot_level = "club"
    bot.save(update_fields=["bot_level"])
    url = f"/api/tournaments/{tournament.pk}/join/"

    def refused(user: User, body: dict[str, Any]) -> tuple[int, str]:
        answer = client_for(user).post(url, body, format="json")
        return answer.status_code, answer.json()["code"]

    assert refused(anna, {}) == (400, "partner_required")
    assert refused(anna, {"partner": anna.pk}) == (400, "invalid_partner")
    assert refused(anna, {"partner": bot.pk}) == (400, "invalid_partner")
    assert refused(anna, {"partner": 10**9}) == (400, "invalid_partner")
    assert client_for(anna).post(url, {"partner": boris.pk}, format="json").status_code == 200
    # Vera would bring Boris, who is already in: neither is entered.
    assert refused(vera, {"partner": boris.pk}) == (409, "partner_already_entered")
    assert refused(boris, {"partner": vera.pk}) == (409, "already_entered")
    assert not EntryPlayer.objects.filter(user=vera).exists()
    enter(tournament, 1)
    assert refused(vera, {"partner": gleb.pk}) == (409, "tournament_full")
    assert Entry.objects.count() == 2
    Tournament.objects.filter(pk=tournament.pk).update(status="running")
    assert refused(vera, {"partner": gleb.pk}) == (409, "tournament_not_open")
    left = client_for(anna).delete(url)
    assert (left.status_code, left.json()["code"]) == (409, "tournament_not_open")


def test_rotating_partners_enter_alone(client_for: Client) -> None:
    tournament = open_tournament(partners="rotating")
    anna, boris = UserFactory.create_batch(2)
    url = f"/api/tournaments/{tournament.pk}/join/"
    answer = client_for(anna).post(url, {"partner": boris.pk}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "partner_not_allowed")
    assert client_for(anna).post(url, {}, format="json").json()["entries"][0]["players"] == [
        anna.pk
    ]
    not_in = client_for(boris).delete(url)
    assert (not_in.status_code, not_in.json()["code"]) == (409, "not_entered")


def test_starting_with_too_few_entries_is_refused_and_nothing_is_made(client_for: Client) -> None:
    tournament = open_tournament(duplicate=True)
    enter(tournament, 3)  # duplicate needs two tables: four pairs
    creator = client_for(tournament.created_by)
    answer = creator.post(f"/api/tournaments/{tournament.pk}/start/")
    assert answer.status_code == 409
    assert answer.json() | {"detail": ""} == {
        "code": "not_enough_entries",
        "detail": "",
        "entries": 3,
        "needed": 4,
    }
    tournament.refresh_from_db()
    assert tournament.status == "open"
    assert not Round.objects.exists() and not Game.objects.exists()


def test_only_the_creator_starts_it_and_the_games_say_their_round(client_for: Client) -> None:
    tournament = open_tournament(rounds=2)
    entries = enter(tournament, 2)
    player = entries[0].players.first()
    assert player is not None
    someone = client_for(player.user)
    refused = someone.post(f"/api/tournaments/{tournament.pk}/start/")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_creator")
    started = client_for(tournament.created_by).post(f"/api/tournaments/{tournament.pk}/start/")
    assert started.status_code == 200
    body = started.json()
    assert body["status"] == "running"
    [first_round] = body["rounds"]
    assert first_round["number"] == 1 and len(first_round["games"]) == 1
    assert {entry for side in first_round["tables"][0]["sides"] for entry in side} == {
        entry.pk for entry in entries
    }
    assert [row["rank"] for row in body["standings"]] == [1, 1]
    game = someone.get(f"/api/games/{first_round['games'][0]}/").json()
    assert game["tournament"] == {"id": tournament.pk, "round": 1}
    again = client_for(tournament.created_by).post(f"/api/tournaments/{tournament.pk}/start/")
    assert (again.status_code, again.json()["code"]) == (409, "tournament_not_open")


def test_a_missing_tournament_is_404(client_for: Client) -> None:
    client = client_for(UserFactory.create())
    for answer in (
        client.get("/api/tournaments/99999/"),
        client.post("/api/tournaments/99999/join/", {}, format="json"),
        client.post("/api/tournaments/99999/start/"),
    ):
        assert (answer.status_code, answer.json()["code"]) == (404, "not_found")


def test_a_lobby_game_answers_no_tournament(client_for: Client) -> None:
    anna = UserFactory.create()
    created = client_for(anna).post(
        "/api/games/", {"mode": "async", "length": "deal", "rules": {}}, format="json"
    )
    assert created.json()["tournament"] is None
