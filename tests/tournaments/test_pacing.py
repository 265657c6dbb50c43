"""A tournament's pace (issue 38, point 3): the sweep pairs a round once whatever happens to the
workers, starts a tournament at `starts_at`, plays out a round past its deadline with the
club's bots; a timeout inside a tournament goes to the bot and the event goes on; vacations
stop a tournament game's clock as anywhere."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction

from club import clock
from games import services as game_services
from games.models import Game, Seat
from games.services import time_off, timeouts
from tests.concurrency import run_in_threads
from tests.timing.conftest import play_turn
from tests.tournaments.conftest import (
    current_round,
    enter,
    finish_game,
    open_tournament,
    round_games,
    start,
    turn_of,
)
from tournaments import services
from tournaments.models import Placement, Round, RoundTable, Tournament
from tournaments.services import rounds as round_services

pytestmark = pytest.mark.django_db


class WorkerKilled(BaseException):
    """A worker dying mid-task (not an error the sweep catches and logs)."""


def finish_round(tournament: Tournament, number: int) -> None:
    for game in round_games(tournament, number):
        finish_game(game, [600, 300])


@pytest.fixture
def entered() -> Tournament:
    tournament = open_tournament(rounds=3)
    enter(tournament, 4)
    return tournament


def test_a_worker_killed_while_pairing_leaves_nothing_and_the_round_is_paired_once(
    monkeypatch: pytest.MonkeyPatch, entered: Tournament
) -> None:
    tournament = start(entered)
    paired = Round.objects.filter(tournament=tournament)
    finish_round(tournament, 1)
    real_bulk_create = Placement.objects.bulk_create

    def die_after_the_games_opened(*args: object, **kwargs: object) -> None:
        raise WorkerKilled

    monkeypatch.setattr(Placement.objects, "bulk_create", die_after_the_games_opened)
    games_before = Game.objects.count()
    with pytest.raises(WorkerKilled):
        services.sweep_tournaments()
    # Its round, tables, games and seats went with the transaction.
    assert paired.count() == 1
    assert Game.objects.count() == games_before
    assert current_round(tournament).number == 1
    monkeypatch.setattr(Placement.objects, "bulk_create", real_bulk_create)
    assert services.sweep_tournaments() == 1
    assert services.sweep_tournaments() == 0  # idempotent: nothing more to do
    assert list(paired.values_list("number", flat=True)) == [1, 2]
    assert RoundTable.objects.filter(round__number=2).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_pair_the_next_round_once(entered: Tournament) -> None:
    tournament = start(entered)
    finish_round(tournament, 1)
    results = run_in_threads(services.sweep_tournaments, services.sweep_tournaments)
    assert sorted(results) == [0, 1]
    assert Round.objects.filter(tournament=tournament, number=2).count() == 1
    assert RoundTable.objects.filter(round__number=2).count() == 2


def test_a_round_cannot_be_paired_twice(entered: Tournament) -> None:
    tournament = start(entered)
    with pytest.raises(IntegrityError), transaction.atomic():
        round_services.pair_round_locked(tournament, number=1, now=clock.now())


def test_it_starts_by_itself_at_starts_at_or_is_cancelled_with_too_few_entries() -> None:
    soon = clock.now() + timedelta(hours=1)
    ready = open_tournament(starts_at=soon)
    enter(ready, 3)
    empty = open_tournament(starts_at=soon)
    enter(empty, 1)
    assert services.sweep_tournaments() == 0
    clock.advance(timedelta(hours=1, seconds=1))
    assert services.sweep_tournaments() == 2
    ready.refresh_from_db()
    empty.refresh_from_db()
    assert ready.status == "running" and ready.current_round == 1
    assert len(round_games(ready, 1)) == 1
    assert Placement.objects.filter(round__tournament=ready, table__isnull=True).count() == 1
    assert empty.status == "cancelled" and not Round.objects.filter(tournament=empty).exists()


def test_a_timeout_in_a_tournament_goes_to_the_bot_and_the_event_goes_on(
    entered: Tournament,
) -> None:
    tournament = start(entered)
    [late, other] = round_games(tournament, 1)
    absent = late.turn_seat
    assert absent is not None
    absent_player = Seat.objects.get(game=late, seat=absent).user
    # Three turns in a row time out: a bot takes the seat; nobody is disqualified.
    for timeout in range(3):
        clock.advance(settings.TURN_LIMIT["async"])
        assert timeouts.sweep() >= 1
        late.refresh_from_db()
        while timeout < 2 and late.turn_seat != absent:
            play_turn(late.pk)
            late.refresh_from_db()
    assert Seat.objects.get(game=late, seat=absent).user.is_bot
    finish_game(other, [200, 100])
    # The round's deadline comes: the club's bots play out what is left.
    round_ = current_round(tournament)
    clock.advance(round_.deadline - clock.now() + timedelta(seconds=1))
    assert services.sweep_tournaments() >= 1
    late.refresh_from_db()
    assert late.status == Game.Status.FINISHED
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    # The absent player's entry plays on in round 2.
    entry = Placement.objects.get(round=round_, table__game=late, team=absent % 2).entry
    assert Placement.objects.filter(round__number=2, entry=entry).exists()
    assert Seat.objects.filter(game__tournament__round=2, user=absent_player).exists()


def test_the_round_deadline_plays_out_every_game_left_then_pairs_the_next(
    entered: Tournament,
) -> None:
    tournament = start(entered)
    round_ = current_round(tournament)
    clock.advance(round_.deadline - clock.now() - timedelta(seconds=5))
    assert services.sweep_tournaments() == 0  # not yet
    clock.advance(timedelta(seconds=6))
    assert services.sweep_tournaments() >= 1
    assert all(game.status == Game.Status.FINISHED for game in round_games(tournament, 1))
    assert current_round(tournament).number == 2


def test_a_vacation_stops_a_tournament_games_clock_as_anywhere(entered: Tournament) -> None:
    tournament = start(entered)
    game = round_games(tournament, 1)[0]
    player = Seat.objects.get(game=game, seat=turn_of(game)).user
    time_off.start_vacation(user=player, days=3)
    game.refresh_from_db()
    assert game.turn_started_at is not None
    assert game.turn_deadline == game.turn_started_at + timedelta(days=4)
    clock.advance(settings.TURN_LIMIT["async"] + timedelta(hours=1))
    timeouts.sweep()
    version = game.version
    game.refresh_from_db()
    assert game.version == version  # the other table's turn timed out, not this one


def test_the_games_end_counts_for_the_standings_once_played_through_the_services(
    entered: Tournament,
) -> None:
    tournament = start(entered)
    for game in round_games(tournament, 1):
        assert game_services.play_out(game_id=game.pk)
    assert services.sweep_tournaments() == 1
    detail = round_services.selectors.standings(Tournament.objects.get(pk=tournament.pk))
    assert sum(row.points for row in detail) == 2  # one point a game, two games
    assert all(row.played == 1 for row in detail)


def test_a_game_failing_to_play_out_holds_up_no_other(
    entered: Tournament, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    tournament = start(entered)
    broken, fine = round_games(tournament, 1)
    real_play_out = game_services.play_out

    def play_out(*, game_id: int) -> bool:
        if game_id == broken.pk:
            raise RuntimeError("a bug")
        return real_play_out(game_id=game_id)

    monkeypatch.setattr(game_services, "play_out", play_out)
    round_ = current_round(tournament)
    clock.advance(round_.deadline - clock.now() + timedelta(seconds=1))
    services.sweep_tournaments()
    assert "Playing out game" in caplog.text
    fine.refresh_from_db()
    broken.refresh_from_db()
    assert fine.status == Game.Status.FINISHED and broken.status == Game.Status.ACTIVE
    # After the lease the next sweep tries again, and the round goes on.
    monkeypatch.setattr(game_services, "play_out", real_play_out)
    clock.advance(timedelta(minutes=3))
    assert services.sweep_tournaments() >= 1
    assert current_round(tournament).number == 2
