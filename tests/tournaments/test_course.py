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


def play_through(tournament: Tournament) -> list[list[Placement]]:
    """Every round finished as it comes (the first side wins), the sweep pairing the next;
    the placements of each round."""
    rounds = []
    while tournament.status == Tournament.Status.RUNNING:
        number = tournament.current_round
        for game in round_games(tournament, number):
            finish_game(game, [800, 100] + [0] * (len(game.scores) - 2))
        assert services.sweep_tournaments() == 1
        rounds.append(
            list(Placement.objects.filter(round__tournament=tournament, round__number=number))
        )
        tournament.refresh_from_db()
    return rounds


def opponents(placements: list[Placement]) -> set[frozenset[int]]:
    return {
        frozenset((a.entry_id, b.entry_id))
        for a in placements
        for b in placements
        if a.table_id is not None and a.table_id == b.table_id and a.team != b.team
    }


def partnerships(placements: list[Placement]) -> set[frozenset[int]]:
    return {
        frozenset((a.entry_id, b.entry_id))
        for a in placements
        for b in placements
        if a.table_id is not None
        and a.table_id == b.table_id
        and a.team == b.team
        and a.entry_id != b.entry_id
    }


def test_a_round_robin_of_pairs_meets_everyone_once() -> None:
    tournament = open_tournament(format="round_robin", rounds=None)
    entries = enter(tournament, 5)
    rounds = play_through(start(tournament))
    assert len(rounds) == 5  # odd: each sits out once
    met = [pair for placements in rounds for pair in opponents(placements)]
    assert len(met) == len(set(met)) == 10
    assert sorted(p.entry_id for r in rounds for p in r if p.table_id is None) == sorted(
        entry.pk for entry in entries
    )


def test_a_round_robin_of_four_with_rotating_partners_partners_everyone_once() -> None:
    tournament = open_tournament(format="round_robin", rounds=None, partners="rotating")
    enter(tournament, 4)
    rounds = play_through(start(tournament))
    assert len(rounds) == 3
    partnered = [pair for placements in rounds for pair in partnerships(placements)]
    assert len(partnered) == len(set(partnered)) == 6


def test_a_table_of_two_pairs_single_players() -> None:
    tournament = open_tournament(rules={"players": 2}, rounds=3)
    assert tournament.partners == "rotating"
    enter(tournament, 4)
    rounds = play_through(start(tournament))
    assert len(rounds) == 3
    for game in Game.objects.filter(tournament__id=tournament.pk):
        assert Seat.objects.filter(game=game).count() == 2 and game.rules["players"] == 2
    met = [pair for placements in rounds for pair in opponents(placements)]
    assert len(met) == len(set(met)) == 6  # four players, three rounds: everyone once


def test_samba_tournament_tables_play_samba() -> None:
    tournament = open_tournament(rules={"game": "samba"}, deals=2, rounds=1)
    enter(tournament, 2)
    [game] = round_games(start(tournament), 1)
    assert game.rules["game"] == "samba" and game.rules["deals"] == 2
    assert len(Match.from_dict(game.state or {}).deal.view(0)["hand"]) == 15
