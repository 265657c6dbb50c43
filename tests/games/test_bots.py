"""Bots at the club's tables (issue 12): seated by the creator, shown as bots, playing through the
move service from the worker; no kudos, no reports, no Authority from a game with bots."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from club import clock
from games import services as game_services
from games.models import Abandonment, Game, Move, Seat
from games.players import autoplay
from games.services import timeouts
from games.tasks import sweep_deadlines
from moderation.models import AuthorityChange
from notifications.models import Notification
from tests.factories import UserFactory, started_game
from tests.timing.conftest import (
    celery_worker,
    match_of,
    time_out_three_times,
    turn_of,
    user_at,
    wait_for,
)

BOT_PAUSE = settings.BOT_PAUSE["async"]
__all__ = ["celery_worker"]  # the fixture


def open_table(creator: User, *, length: str = Game.Length.DEAL, rules: dict | None = None) -> Game:
    return game_services.open_table(
        user=creator, mode=Game.Mode.ASYNC, length=length, rules=rules or {}, private=False, seat=0
    )


def seat_bots(game: Game, creator: User, levels: dict[int, str]) -> Game:
    for seat, level in levels.items():
        game_services.seat_bot(game_id=game.pk, user=creator, seat=seat, level=level)
    return Game.objects.get(pk=game.pk)


def person_plays(game: Game) -> None:
    """The person to move plays a whole turn through the move service."""
    seat = turn_of(game)
    user = Seat.objects.get(game=game, seat=seat).user
    for action in autoplay(match_of(game).deal, seat):
        game_services.make_move(game_id=game.pk, user=user, version=game.version, action=action)
        game.refresh_from_db()


def is_bot_turn(game: Game) -> bool:
    return Seat.objects.get(game=game, seat=turn_of(game)).user.is_bot


@pytest.mark.django_db
def test_the_creator_seats_bots_and_the_fourth_seat_starts_the_game(
    client_for: Callable[[User], APIClient],
) -> None:
    creator, stranger = UserFactory.create(), UserFactory.create()
    game = open_table(creator)
    api = client_for(creator)
    answer = api.post(f"/api/games/{game.pk}/bots/", {"seat": 1, "level": "club"}, format="json")
    assert answer.status_code == 200, answer.json()
    bot = answer.json()["players"][1]["user"]
    assert bot["is_bot"] is True and bot["bot_level"] == "club"
    assert (
        answer.json()["with_bots"] is True
        and answer.json()["players"][0]["user"]["is_bot"] is False
    )

    refused = client_for(stranger).post(
        f"/api/games/{game.pk}/bots/", {"seat": 2, "level": "club"}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
    taken = api.post(f"/api/games/{game.pk}/bots/", {"seat": 1, "level": "expert"}, format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    bad = api.post(f"/api/games/{game.pk}/bots/", {"seat": 2, "level": "master"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"

    for seat in (2, 3):
        api.post(f"/api/games/{game.pk}/bots/", {"seat": seat, "level": "club"}, format="json")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    bots = [seat.user for seat in Seat.objects.filter(game=game).exclude(seat=0)]
    assert len({bot.pk for bot in bots}) == 3 and all(bot.bot_level == "club" for bot in bots)
    assert not any(bot.has_usable_password() for bot in bots)
    late = api.post(f"/api/games/{game.pk}/bots/", {"seat": 3, "level": "club"}, format="json")
    assert late.json()["code"] == "game_not_waiting"

    card = client_for(stranger).get(f"/api/users/{bots[0].pk}/").json()
    assert card["is_bot"] is True and card["bot_level"] == "club"
    lobby = client_for(stranger).get("/api/games/?status=active").json()["results"]
    assert any(row["id"] == game.pk and row["with_bots"] for row in lobby)


@pytest.mark.django_db(transaction=True)
def test_the_sweep_plays_a_bots_turn_after_its_pause_as_its_own_move() -> None:
    creator = UserFactory.create()
    game = seat_bots(open_table(creator), creator, {1: "beginner", 2: "club", 3: "expert"})
    while not is_bot_turn(game):
        person_plays(game)
    assert game.turn_started_at is not None
    assert game.turn_deadline == game.turn_started_at + BOT_PAUSE
    assert timeouts.sweep() == 0  # the pause first
    clock.advance(BOT_PAUSE)
    seat, version = turn_of(game), game.version
    assert timeouts.sweep() == 1
    moves = list(Move.objects.filter(game=game, seq__gt=version))
    assert moves and {move.seat for move in moves} == {seat} and not any(m.automatic for m in moves)
    assert moves[-1].action["type"] == "discard" or Game.objects.get(pk=game.pk).is_over
    assert not Notification.objects.filter(kind="autoplayed").exists()
    assert Seat.objects.get(game=game, seat=seat).consecutive_timeouts == 0


def worker_plays_the_bots_turn(game: Game) -> None:
    """The bot's pause passes and the worker's deadline sweep plays its turn."""
    version = game.version
    clock.advance(BOT_PAUSE)
    sweep_deadlines.delay()
    wait_for(lambda: Game.objects.get(pk=game.pk).version > version)


@pytest.mark.django_db(transaction=True)
def test_three_bots_and_a_person_play_a_whole_match_through_the_worker(celery_worker: None) -> None:
    creator = UserFactory.create()
    game = open_table(creator, length=Game.Length.MATCH, rules={"target": 500})
    game = seat_bots(game, creator, {1: "expert", 2: "club", 3: "beginner"})
    for _turn in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        if not is_bot_turn(game):
            person_plays(game)
            continue
        worker_plays_the_bots_turn(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and max(game.scores) >= 500
    bot_moves = Move.objects.filter(game=game, seat__in=[1, 2, 3])
    assert bot_moves.exists() and not bot_moves.filter(automatic=True).exists()
    assert not Notification.objects.filter(kind="autoplayed").exists()


@pytest.mark.django_db
def test_bots_get_no_kudos_cannot_be_reported_and_move_no_authority(
    client_for: Callable[[User], APIClient],
) -> None:
    creator, partner = UserFactory.create(), UserFactory.create()
    game = open_table(creator)
    game_services.join_table(game_id=game.pk, user=partner, seat=2)
    game = seat_bots(game, creator, {1: "club", 3: "club"})
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, finished_at=clock.now() - timedelta(minutes=1)
    )
    bot = Seat.objects.get(game=game, seat=1).user
    api = client_for(creator)
    report = api.post(
        "/api/reports/",
        {"game": game.pk, "accused": bot.pk, "reason": "rudeness", "text": "rude"},
        format="json",
    )
    assert report.status_code == 400 and report.json()["code"] == "accused_is_bot"
    before = User.objects.get(pk=partner.pk).authority
    words = api.post(
        f"/api/games/{game.pk}/afterwords/", {"to": "partner", "text": "Спасибо!"}, format="json"
    )
    assert words.status_code == 201, words.json()
    assert User.objects.get(pk=partner.pk).authority == before
    assert AuthorityChange.objects.get(user=partner).reason == "game_with_bots"

    # A bot partner: no kudos to give.
    lonely = UserFactory.create()
    game = open_table(lonely)
    game = seat_bots(game, lonely, {1: "club", 2: "club", 3: "club"})
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=clock.now())
    kudos = client_for(lonely).post(
        f"/api/games/{game.pk}/afterwords/", {"to": "partner", "text": "Спасибо!"}, format="json"
    )
    assert kudos.status_code == 400 and kudos.json()["code"] == "partner_is_bot"


def abandoned_seat_game() -> tuple[Game, int]:
    """A correspondence match of four people whose player to move let their turn run out three
    times in a row: their seat is empty, the game waits for a bot (services.abandon_seat)."""
    game = started_game(length=Game.Length.MATCH)
    culprit = turn_of(game)
    game = time_out_three_times(game)
    assert game.status == Game.Status.ACTIVE and game.turn_seat == culprit
    assert not Seat.objects.filter(game=game, seat=culprit).exists()
    return game, culprit


@pytest.mark.django_db(transaction=True)
def test_the_creator_gives_an_abandoned_seat_to_a_bot_and_the_worker_plays_it(
    celery_worker: None, client_for: Callable[[User], APIClient]
) -> None:
    game, culprit = abandoned_seat_game()
    creator, other = user_at(game, (culprit + 1) % 4), user_at(game, (culprit + 2) % 4)
    Game.objects.filter(pk=game.pk).update(created_by=creator)  # still at the table

    refused = client_for(other).post(
        f"/api/games/{game.pk}/bots/", {"seat": culprit, "level": "club"}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
    taken = client_for(creator).post(
        f"/api/games/{game.pk}/bots/", {"seat": (culprit + 2) % 4, "level": "club"}, format="json"
    )
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    answer = client_for(creator).post(
        f"/api/games/{game.pk}/bots/", {"seat": culprit, "level": "club"}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    bot = next(player for player in body["players"] if player["seat"] == culprit)["user"]
    assert bot["is_bot"] is True and bot["bot_level"] == "club" and body["with_bots"] is True
    assert body["status"] == "active" and body["turn_seat"] == culprit
    game.refresh_from_db()
    assert game.turn_started_at is not None
    assert game.turn_deadline == game.turn_started_at + BOT_PAUSE  # the bot's pause, not a day
    again = client_for(creator).post(
        f"/api/games/{game.pk}/bots/", {"seat": culprit, "level": "club"}, format="json"
    )
    assert again.status_code == 409 and again.json()["code"] == "game_not_waiting"

    # The worker plays the bot's turns, from the seat's hand, as the bot's own moves.
    first_version = game.version
    bot_turns = 0
    for _turn in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or bot_turns == 2:
            break
        if not is_bot_turn(game):
            person_plays(game)
            continue
        worker_plays_the_bots_turn(game)
        bot_turns += 1
    assert bot_turns == 2 or Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    bot_moves = Move.objects.filter(game=game, seat=culprit, seq__gt=first_version)
    assert bot_moves.exists() and not bot_moves.filter(automatic=True).exists()
    assert Game.objects.get(pk=game.pk).status != Game.Status.ABANDONED


@pytest.mark.django_db(transaction=True)
def test_the_table_page_offers_the_abandoned_seat_and_once_the_creator_left_anyone_there_fills_it(
    client_for: Callable[[User], APIClient],
) -> None:
    game, culprit = abandoned_seat_game()
    creator, other = user_at(game, (culprit + 1) % 4), user_at(game, (culprit + 3) % 4)
    Game.objects.filter(pk=game.pk).update(created_by=creator)
    table = Client()
    table.force_login(other)
    page = table.get(f"/games/{game.pk}/").content.decode()
    assert "Игрок ушёл из-за стола" in page and "data-bot-form" not in page
    table.force_login(creator)
    page = table.get(f"/games/{game.pk}/").content.decode()
    assert f'data-abandoned-seats="{culprit}"' in page and "data-bot-form" in page

    # The creator was the one who left: then any person at the table may seat the bot.
    Game.objects.filter(pk=game.pk).update(created_by=Abandonment.objects.get(game=game).user)
    stranger = client_for(UserFactory.create()).post(
        f"/api/games/{game.pk}/bots/", {"seat": culprit, "level": "club"}, format="json"
    )
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_creator"
    table.force_login(other)
    assert "data-bot-form" in table.get(f"/games/{game.pk}/").content.decode()
    seated = table.post(f"/games/{game.pk}/bots/", {"seat": culprit, "level": "expert"})
    assert seated.status_code == 302
    bot = Seat.objects.get(game=game, seat=culprit).user
    assert bot.is_bot and bot.bot_level == "expert"
    page = table.get(f"/games/{game.pk}/").content.decode()
    assert "Игрок ушёл из-за стола" not in page and "bot-badge" in page
