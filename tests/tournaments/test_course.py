"""A tournament's course through its services (issue 38): entries, the start with its first
round opened and seated in one go, rounds paired as the last game ends, the end."""

import pytest

from games.engine import Match
from games.models import Game, Seat
from notifications.models import OutboxMessage
from tests.tournaments.conftest import enter, finish_game, open_tournament, round_games, start
from tournaments import services
from tournaments.models import Placement, Round, Tournament

pytestmark = pytest.mark.django_db


def test_a_swiss_tournament_of_pairs_from_the_start_to_the_final_table() -> None:
    tournament = open_tournament(rounds=2)
    entries = enter(tournament, 5)
    tournament = start(tournament)
    assert tournament.status == "running" and tournament.current_round == 1
    games = round_games(tournament, 1)
    assert len(games) == 2
    byes = Placement.objects.filter(round__number=1, table__isnull=True)
    assert byes.count() == 1
    for game in games:
        assert game.status == Game.Status.ACTIVE
        assert game.tournament == {"id": tournament.pk, "round": 1}
        assert Seat.objects.filter(game=game).count() == 4
        kinds = OutboxMessage.objects.filter(game=game, kind="tournament_round")
        assert kinds.count() == 4
    # Nothing happens while a game is under way.
    finish_game(games[0], [1200, 300])
    assert services.sweep_tournaments() == 0
    finish_game(games[1], [500, 500])
    assert services.sweep_tournaments() == 1
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    for game in round_games(tournament, 2):
        finish_game(game, [900, 100])
    assert services.sweep_tournaments() == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert len(entries) == 5


def test_duplicate_round_deals_the_same_cards_by_seat_at_every_table() -> None:
    tournament = open_tournament(duplicate=True, deals=2, partners="rotating")
    enter(tournament, 12)
    tournament = start(tournament)
    games = round_games(tournament, 1)
    assert len(games) == 3
    assert len({game.seed for game in games}) == 1
    assert len({game.first_dealer for game in games}) == 1
    hands = [
        [Match.from_dict(game.state or {}).deal.view(seat)["hand"] for seat in range(4)]
        for game in games
    ]
    assert hands[0] == hands[1] == hands[2]
    assert all(game.sealed for game in games)
