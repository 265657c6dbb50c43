"""The rematch (issue 37, CONTRACT.md §8): one new table per game over, whoever presses and
however many at once; the same people, mode and rules; everyone at their old seat."""

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from games import services
from games.models import Game, Invitation, Rematch, Seat
from notifications.models import OutboxMessage
from social import services as social_services
from tests.concurrency import run_in_threads
from tests.factories import GameFactory, SeatFactory, UserFactory, started_game

pytestmark = pytest.mark.django_db

Client = Callable[[User], APIClient]

# A live six-handed private match in two teams of three, to 2500 with a house rule.
RULES = {"players": 6, "teams": 2, "target": 2500, "wild_limit": "half"}


def over_game(players: list[User], **fields: Any) -> Game:
    """A game that is over, players[i] at seat i (its course is irrelevant to a rematch)."""
    settings = {
        "mode": Game.Mode.LIVE,
        "length": Game.Length.MATCH,
        "rules": services.validated_rules(length=Game.Length.MATCH, options=RULES).to_options(),
        "private": True,
        "invite_code": "old-code",
    }
    game = GameFactory.create(
        created_by=players[0],
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
        **{**settings, **fields},
    )
    for seat, player in enumerate(players):
        SeatFactory.create(game=game, user=player, seat=seat)
    return game


def rematch(client: APIClient, game: Game) -> Any:
    return client.post(f"/api/games/{game.pk}/rematch/")


def test_the_rematch_has_the_same_people_mode_and_rules_each_at_their_seat(
    client_for: Client,
) -> None:
    players = UserFactory.create_batch(6)
    old = over_game(players)
    made = rematch(client_for(players[3]), old)
    assert made.status_code == 201, made.json()
    body = made.json()
    new = Game.objects.get(pk=body["id"])
    assert (new.mode, new.length, new.rules, new.private) == (
        old.mode,
        old.length,
        old.rules,
        old.private,
    )
    assert new.invite_code and new.invite_code != old.invite_code
    assert new.created_by == players[3] and new.status == Game.Status.WAITING
    # The presser at their old seat, the others invited to theirs: partners stay partners.
    assert [(row["seat"], row["user"]["id"]) for row in body["players"]] == [(3, players[3].pk)]
    assert {row["seat"]: row["user"]["id"] for row in body["invitations"]} == {
        seat: player.pk for seat, player in enumerate(players) if seat != 3
    }
    notified = OutboxMessage.objects.filter(kind="invitation", game=new)
    assert {message.user_id for message in notified} == {
        player.pk for player in players if player != players[3]
    }
    assert {message.payload["rematch_of"] for message in notified} == {old.pk}
    assert Rematch.objects.get(of_game=old).game == new


def test_later_presses_answer_the_same_table_and_seat_their_player(client_for: Client) -> None:
    players = UserFactory.create_batch(6)
    old = over_game(players)
    first = rematch(client_for(players[0]), old).json()
    second = rematch(client_for(players[4]), old)
    assert second.status_code == 200
    assert second.json()["id"] == first["id"]
    assert second.json()["your_seat"] == 4
    assert Invitation.objects.get(game_id=first["id"], invitee=players[4]).status == "accepted"
    again = rematch(client_for(players[0]), old)
    assert (again.status_code, again.json()["id"]) == (200, first["id"])
    for seat in (1, 2, 3, 5):
        rematch(client_for(players[seat]), old)
    assert Game.objects.get(pk=first["id"]).status == Game.Status.ACTIVE
    assert Game.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_players_pressing_at_once_open_one_table() -> None:
    players = UserFactory.create_batch(6)
    old = over_game(players)
    results = run_in_threads(
        lambda: services.rematch(game_id=old.pk, user=players[1]),
        lambda: services.rematch(game_id=old.pk, user=players[2]),
    )
    assert not [result for result in results if isinstance(result, Exception)], results
    assert len({result.table.game.pk for result in results}) == 1
    assert sorted(result.created for result in results) == [False, True]
    assert Rematch.objects.count() == 1
    new = Game.objects.exclude(pk=old.pk).get()
    assert set(Seat.objects.filter(game=new).values_list("user_id", flat=True)) == {
        players[1].pk,
        players[2].pk,
    }


def test_a_game_still_running_has_no_rematch(client_for: Client) -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    refused = rematch(client_for(players[0]), game)
    assert (refused.status_code, refused.json()["code"]) == (409, "game_not_over")
    assert not Rematch.objects.exists() and Game.objects.count() == 1


def test_a_tournament_game_has_no_rematch(client_for: Client) -> None:
    players = UserFactory.create_batch(6)
    game = over_game(players, tournament={"id": 1, "round": 2})
    refused = rematch(client_for(players[0]), game)
    assert (refused.status_code, refused.json()["code"]) == (409, "tournament_game")
    assert not Rematch.objects.exists() and Game.objects.count() == 1


def test_only_the_games_players_ask_for_its_rematch(client_for: Client) -> None:
    players = UserFactory.create_batch(6)
    outsider = UserFactory.create()
    public = over_game(players, private=False, invite_code="")
    refused = rematch(client_for(outsider), public)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_seated")
    hidden = rematch(client_for(outsider), over_game(UserFactory.create_batch(6)))
    assert hidden.status_code == 404
    assert not Rematch.objects.exists()


def test_a_rematch_with_bots_takes_them_back_and_may_start_at_once(client_for: Client) -> None:
    person = UserFactory.create()
    bots = UserFactory.create_batch(5, bot_level="club")
    old = over_game([person, *bots], private=False, invite_code="")
    made = rematch(client_for(person), old).json()
    assert made["status"] == "active"
    assert [(row["seat"], row["user"]["id"]) for row in made["players"]] == [
        (seat, player.pk) for seat, player in enumerate([person, *bots])
    ]


def test_a_player_apart_from_the_opener_is_not_invited(client_for: Client) -> None:
    players = UserFactory.create_batch(6)
    old = over_game(players)
    social_services.block(user=players[5], player_id=players[0].pk)
    made = rematch(client_for(players[0]), old).json()
    assert 5 not in {row["seat"] for row in made["invitations"]}
    refused = rematch(client_for(players[5]), old)
    assert (refused.status_code, refused.json()["code"]) == (403, "blocked")
    # The seat is open: anybody else of the club may take it.
    stranger = UserFactory.create()
    new = Game.objects.get(pk=made["id"])
    joined = client_for(stranger).post(
        f"/api/games/{new.pk}/join/", {"seat": 5, "invite_code": new.invite_code}, format="json"
    )
    assert joined.status_code == 200, joined.json()


# Every column of a game is a setting of the table (a rematch copies it) or its own course.
GAME_COURSE = {
    "id",
    "status",
    "invite_code",
    "created_by",
    "created_at",
    "version",
    "state",
    "seed",
    "first_dealer",
    "deal_number",
    "scores",
    "turn_seat",
    "turn_started_at",
    "turn_deadline",
    "started_at",
    "finished_at",
    "winner_team",
    "abandoned_by_seat",
    "sweep_failures",
    "sweep_retry_at",
    "pause_asked_by",
    "pause_asked_at",
    "pause_days",
    "pause_votes",
    "paused_from",
    "paused_until",
    # A tournament's label and its duplicate round's seal: a rematch is a table of the lobby's.
    "tournament",
    "sealed",
    # A live game's break between deals, and a change of pace asked in the course of play.
    "deal_break_until",
    "pace_wanted",
    "pace_votes",
    # The table's rating pool, worked out from its mode and rules.
    "pool",
    # How many of the table's phrases were said: a rematch's table starts silent.
    "phrases_said",
}
# Settings kept in columns of other names.
SETTING_COLUMNS = {"rating_range": {"rating_min", "rating_max"}}


def test_every_column_of_a_game_is_a_setting_or_its_course() -> None:
    """A column added to Game is either chosen when the table is opened (then list it in
    Game.TABLE_SETTINGS, and the rematch copies it) or part of the game's course (here)."""
    columns = {field.name for field in Game._meta.concrete_fields}
    settings = set().union(*(SETTING_COLUMNS.get(name, {name}) for name in Game.TABLE_SETTINGS))
    assert not settings & GAME_COURSE
    assert columns == settings | GAME_COURSE
