"""Which games move ratings: tables of people opened rated (the default); never a casual table
or one a bot sat at when it started; a seat abandoned to a bot later keeps the game rated, and
the side that abandoned places last."""

from datetime import timedelta

import pytest
from django.db import transaction

from club import clock
from games import services
from games.engine import Match
from games.models import Game
from games.players import autoplay
from ratings.models import Rating, RatingChange
from tests.factories import UserFactory, started_game
from tests.games.test_records import end_abandoned_by, leave_to_a_bot, play_to_the_end
from tests.ratings.ending import change_of, end_game

pytestmark = pytest.mark.django_db


def test_a_table_of_people_is_rated_by_default(api_client):
    creator = UserFactory.create()
    api_client.force_authenticate(creator)

    answer = api_client.post("/api/games/", {"mode": "live", "length": "match"}, format="json")

    assert answer.status_code == 201
    assert answer.json()["rated"] is True
    assert answer.json()["pool"] == "live.classic.4"
    assert answer.json()["rating_range"] is None


def test_a_game_played_through_the_move_service_moves_the_ratings_once():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)

    play_to_the_end(game)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert RatingChange.objects.filter(game=game).count() == 4
    winners = {seat.user_id for seat in game.seats.all() if seat.team == game.winner_team}
    for player in players:
        assert (change_of(game, player) > 0) == (player.pk in winners)


def test_a_casual_table_moves_nobody(api_client):
    players = UserFactory.create_batch(4)
    api_client.force_authenticate(players[0])
    game_id = api_client.post(
        "/api/games/", {"mode": "async", "length": "deal", "rated": False}, format="json"
    ).json()["id"]
    for seat, player in enumerate(players[1:], start=1):
        services.join_table(game_id=game_id, user=player, seat=seat)

    game = end_game(Game.objects.get(pk=game_id), scores=[3000, 100])

    assert not game.rated
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()
    detail = api_client.get(f"/api/games/{game_id}/").json()
    assert detail["rated"] is False
    assert all("rating_change" not in player for player in detail["players"])


def test_a_bot_at_the_start_makes_the_table_casual(api_client):
    people = UserFactory.create_batch(3)
    game = services.open_table(user=people[0], mode="async", length="deal", rules={}, private=False)
    services.seat_bot(game_id=game.pk, user=people[0], seat=1, level="club")
    # Casual as soon as the bot sits, before the start: the lobby says so.
    assert Game.objects.get(pk=game.pk).rated is False
    services.join_table(game_id=game.pk, user=people[1], seat=2)
    services.join_table(game_id=game.pk, user=people[2], seat=3)

    ended = end_game(Game.objects.get(pk=game.pk), scores=[100, 4000])

    assert ended.rated is False
    assert not RatingChange.objects.exists()
    api_client.force_authenticate(people[0])
    assert api_client.get(f"/api/games/{game.pk}/").json()["rated"] is False


def test_a_seat_abandoned_to_a_bot_keeps_the_game_rated_and_its_side_loses(api_client):
    """The abandoner's side places last whatever the score: the abandoner and their partner
    move down, the others up; the bot that played the seat on is not rated."""
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    seat = leave_to_a_bot(game)
    services.seat_bot(
        game_id=game.pk, user=players[1] if seat == 0 else players[0], seat=seat, level="club"
    )
    abandoner = players[seat]
    team = seat % 2
    scores = [0, 0]
    scores[team] = 5000  # the abandoner's side ahead on points

    ended = end_game(game, scores=scores)

    assert ended.rated
    assert ended.winner_team == team  # the match's own result stands
    partner = players[(seat + 2) % 4]
    opponents = [players[(seat + 1) % 4], players[(seat + 3) % 4]]
    assert change_of(ended, abandoner) < 0
    assert change_of(ended, partner) < 0
    assert all(change_of(ended, opponent) > 0 for opponent in opponents)
    assert RatingChange.objects.filter(game=ended).count() == 4
    api_client.force_authenticate(partner)
    shown = {
        player["user"]["id"]: player["rating_change"]
        for player in api_client.get(f"/api/games/{game.pk}/").json()["players"]
    }
    bot = ended.seats.get(seat=seat).user
    assert bot.is_bot and shown[bot.pk] is None
    assert shown[partner.pk] == change_of(ended, partner)


def test_a_game_ended_abandoned_rates_the_abandoners_side_last():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    seat = leave_to_a_bot(game)

    end_abandoned_by(game, seat=seat)  # nobody gave the seat to a bot in time

    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert change_of(game, players[seat]) < 0
    assert change_of(game, players[(seat + 2) % 4]) < 0
    assert change_of(game, players[(seat + 1) % 4]) > 0


def abandon(game: Game, seat: int) -> None:
    """The seat's player leaves the game (as three timeouts in a row do) and the table's
    creator gives the seat to a bot."""
    with transaction.atomic():
        locked = services.lock_game(game_id=game.pk)
        services.abandon_seat(locked=locked, seat=next(s for s in locked.seats if s.seat == seat))
    services.seat_bot(game_id=game.pk, user=game.created_by, seat=seat, level="club")


def test_at_three_sides_every_side_that_abandoned_loses():
    """Two pairs abandon, at different moments: the pair that stayed places first though
    furthest behind; the other two share the last place, so neither gains from the other."""
    players = UserFactory.create_batch(6)
    game = started_game(players=players, rules={"players": 6})
    abandon(game, 1)  # pair 1+4
    clock.advance(timedelta(minutes=5))
    abandon(game, 2)  # pair 2+5

    ended = end_game(game, scores=[100, 7000, 6000])

    assert change_of(ended, players[0]) == change_of(ended, players[3]) > 0
    assert change_of(ended, players[1]) == change_of(ended, players[4]) < 0
    assert change_of(ended, players[2]) == change_of(ended, players[5]) < 0


def test_the_last_moves_own_answer_carries_the_rating_changes(api_client):
    """The ratings move in the transaction of the game's last move: the answer to that very
    move (and its version) already shows each player's change."""
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    answer: dict = {}
    for _move in range(2000):
        state = Game.objects.get(pk=game.pk)
        if state.status != Game.Status.ACTIVE:
            break
        seat = state.turn_seat
        assert seat is not None
        action = autoplay(Match.from_dict(state.state or {}).deal, seat)[0]
        api_client.force_authenticate(players[seat])
        response = api_client.post(
            f"/api/games/{game.pk}/moves/",
            {"version": state.version, "action": action},
            format="json",
        )
        assert response.status_code == 200, response.json()
        answer = response.json()["game"]
    assert answer["status"] == "finished"
    shown = {player["user"]["id"]: player["rating_change"] for player in answer["players"]}
    assert shown == {player.pk: change_of(game, player) for player in players}
    assert api_client.get(f"/api/games/{game.pk}/").json()["version"] == answer["version"]
