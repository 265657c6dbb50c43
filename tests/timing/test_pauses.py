"""An agreed pause of a correspondence game through the API (issue 21, CONTRACT §5)."""

from datetime import datetime, timedelta

import pytest
from django.conf import settings

from club import clock
from games.models import Game
from games.services import timeouts
from notifications.models import Notification
from notifications.services import drain_outbox
from tests.factories import UserFactory, started_game
from tests.timing.conftest import deadline_of, play_turn
from tests.timing.test_vacations import client_of

pytestmark = pytest.mark.django_db

DAY = timedelta(hours=24)


def post(game: Game, user, path: str, body: dict | None = None):
    return client_of(user).post(f"/api/games/{game.pk}/pause/{path}", body or {}, format="json")


def parsed(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def test_a_pause_asked_accepted_by_all_and_resumed_by_all():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    started = game.turn_started_at
    assert started is not None
    clock.advance(timedelta(hours=2))

    asked = post(game, players[1], "", {"days": 7})

    assert asked.status_code == 200
    assert asked.json()["pause"]["asked_by"] == 1
    assert asked.json()["paused_until"] is None
    drain_outbox()
    told = set(Notification.objects.filter(kind="pause_asked").values_list("user", flat=True))
    assert told == {players[0].pk, players[2].pk, players[3].pk}
    for player in players[2:]:
        assert post(game, player, "accept/").json()["paused_until"] is None
    accepted = post(game, players[0], "accept/")

    assert accepted.status_code == 200
    paused_until = parsed(accepted.json()["paused_until"])
    assert paused_until is not None
    assert abs(paused_until - (clock.now() + 7 * DAY)) < timedelta(seconds=5)
    game.refresh_from_db()
    assert game.paused_from is not None
    assert deadline_of(game) == started + DAY + (paused_until - game.paused_from)
    assert parsed(accepted.json()["turn_deadline"]) == deadline_of(game)

    clock.advance(3 * DAY)
    assert timeouts.sweep() == 0
    for player in players[:3]:
        assert post(game, player, "resume/").json()["paused_until"] is not None
    resumed = post(game, players[3], "resume/")

    assert resumed.status_code == 200
    assert resumed.json()["paused_until"] is None
    game.refresh_from_db()
    # 2 hours were spent before the pause: 22 are left.
    left = deadline_of(game) - clock.now()
    assert timedelta(hours=21, minutes=59) < left <= timedelta(hours=22)
    assert post(game, players[0], "resume/").json()["code"] == "not_paused"


def test_a_pause_nobody_answered_lapses():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    assert post(game, players[0], "", {"days": 3}).status_code == 200
    clock.advance(timedelta(hours=settings.CORRESPONDENCE_PAUSE_ASK_HOURS, minutes=1))

    late = post(game, players[1], "accept/")

    assert late.status_code == 409
    assert late.json()["code"] == "no_pause_asked"
    pause = client_of(players[1]).get(f"/api/games/{game.pk}/").json()["pause"]
    assert pause == {"asked_by": None, "days": None, "asked_until": None, "votes": []}
    # The clock ran all along: the turn times out as ever.
    assert timeouts.sweep() == 1


def test_a_table_with_bots_pauses_with_the_peoples_agreement():
    person = UserFactory.create()
    game = Game.objects.get(
        pk=client_of(person)
        .post("/api/games/", {"mode": "async", "length": "deal"}, format="json")
        .json()["id"]
    )
    for seat in (1, 2, 3):
        bot = client_of(person).post(
            f"/api/games/{game.pk}/bots/", {"seat": seat, "level": "beginner"}, format="json"
        )
        assert bot.status_code == 200

    paused = post(game, person, "", {"days": 2})

    assert paused.status_code == 200
    assert parsed(paused.json()["paused_until"]) is not None


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("", {"days": 0}, 400, "invalid"),
        ("", {"days": 15}, 400, "invalid"),
        ("accept/", None, 409, "no_pause_asked"),
        ("resume/", None, 409, "not_paused"),
    ],
)
def test_refusals(path, body, status, code):
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    answer = post(game, players[0], path, body)
    assert answer.status_code == status
    assert answer.json()["code"] == code


def test_asking_twice_being_paused_spectators_and_live_games():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    assert post(game, UserFactory.create(), "", {"days": 2}).json()["code"] == "not_seated"
    assert post(game, players[0], "", {"days": 2}).status_code == 200
    assert post(game, players[1], "", {"days": 2}).json()["code"] == "pause_already_asked"
    for player in players[1:]:
        post(game, player, "accept/")
    assert post(game, players[1], "", {"days": 2}).json()["code"] == "already_paused"
    assert post(game, players[1], "accept/").json()["code"] == "already_paused"
    live = started_game(mode="live", players=UserFactory.create_batch(4))
    refused = post(live, live.seats.get(seat=0).user, "", {"days": 2})
    assert (refused.status_code, refused.json()["code"]) == (409, "not_correspondence")


def test_a_turn_starting_during_the_pause_starts_its_clock_when_it_ends():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    for player in players:
        post(game, player, "accept/" if player != players[0] else "", {"days": 2})
    game.refresh_from_db()
    assert game.paused_until is not None

    play_turn(game.pk)
    game.refresh_from_db()
    assert deadline_of(game) == game.paused_until + DAY
