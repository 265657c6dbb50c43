"""Turn deadlines: swept from the database with SKIP LOCKED, played once, on the DB clock."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from club import clock
from club.errors import ClubError, status_of
from games import services as game_services
from games.models import Abandonment, Game, Move, Seat
from games.players import autoplay
from games.players import play_turn as engine_play_turn
from games.selectors import player_stats
from games.services import timeouts
from games.services.bots import decision_seed, seat_log
from games.tasks import sweep_deadlines
from notifications.models import Notification
from notifications.services import drain_outbox
from tests.concurrency import run_in_threads
from tests.factories import started_game
from tests.timing.conftest import (
    deadline_of,
    match_of,
    new_user,
    play_turn,
    time_out_three_times,
    turn_of,
    user_at,
    wait_for,
)

pytestmark = pytest.mark.django_db(transaction=True)

ASYNC_LIMIT = settings.TURN_LIMIT["async"]


def autoplayed(game: Game) -> list[Move]:
    return list(Move.objects.filter(game=game, automatic=True))


def test_game_stores_its_turn_deadline_and_nothing_happens_before_it():
    game = started_game()
    assert game.turn_started_at is not None
    assert deadline_of(game) == game.turn_started_at + ASYNC_LIMIT  # R-CLUB-1
    # A minute short (not a second: a loaded machine's real time runs on meanwhile).
    clock.advance(ASYNC_LIMIT - timedelta(minutes=1))
    assert timeouts.sweep() == 0
    assert autoplayed(game) == []


def test_a_timed_out_turn_is_the_club_bots_turn_from_what_the_seat_sees():
    game = started_game()
    play_turn(game.pk)  # a turn in the log, so the bot reads a real one
    game.refresh_from_db()
    seat, match = turn_of(game), match_of(game)
    log = seat_log(game=game, deal_number=match.deal_number, seat=seat)
    assert log and all(entry["private"] is None for entry in log if entry["seat"] != seat)
    expected = engine_play_turn(match.deal, seat, level="club", log=log, seed=decision_seed(game))
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))
    assert timeouts.sweep() == 1
    assert [move.action for move in autoplayed(game)] == expected


def test_overdue_turn_is_autoplayed_exactly_once_by_two_racing_sweeps():
    game = started_game()
    seat, version, deadline = turn_of(game), game.version, deadline_of(game)
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))

    handled = run_in_threads(timeouts.sweep, timeouts.sweep)

    assert sorted(handled) == [0, 1]
    moves = autoplayed(game)
    assert moves and {move.seat for move in moves} == {seat}
    assert [move.seq for move in moves] == list(range(version + 1, version + len(moves) + 1))
    assert moves[-1].action["type"] == "discard"
    game.refresh_from_db()
    assert game.version == version + len(moves)
    assert game.turn_seat == (seat + 1) % 4
    # The next turn's clock started when the turn really ended: at the old deadline.
    assert game.turn_started_at == deadline
    assert game.turn_deadline == deadline + ASYNC_LIMIT
    drain_outbox()
    told = Notification.objects.filter(user=user_at(game, seat), kind="autoplayed")
    assert told.count() == 1
    assert told.get().payload["reason"] == "timeout"
    assert Seat.objects.get(game=game, seat=seat).consecutive_timeouts == 1


def test_a_late_sweep_does_not_shift_the_next_turns_clock():
    game = started_game()
    deadline = deadline_of(game)
    clock.advance(ASYNC_LIMIT + timedelta(hours=5))  # the workers were down for five hours
    assert timeouts.sweep() == 1
    game.refresh_from_db()
    assert game.turn_started_at == deadline
    assert game.turn_deadline == deadline + ASYNC_LIMIT


def test_a_long_outage_leaves_the_next_player_half_a_turn():
    game = started_game()
    clock.advance(ASYNC_LIMIT * 3)  # the workers were down for two whole turns
    assert timeouts.sweep() == 1
    game.refresh_from_db()
    time_left = deadline_of(game) - clock.now()
    assert ASYNC_LIMIT / 2 - timedelta(minutes=1) < time_left <= ASYNC_LIMIT / 2
    assert timeouts.sweep() == 0  # no cascade: the next player can still play


def test_sweep_racing_a_players_discard_applies_only_one_of_them():
    outcomes = set()
    for _ in range(4):
        clock.reset()
        game = started_game()
        seat = turn_of(game)
        user = user_at(game, seat)
        drawn = game_services.make_move(
            game_id=game.pk, user=user, version=game.version, action={"type": "draw"}
        )
        assert isinstance(drawn, game_services.MoveResult)
        game.refresh_from_db()
        discard = autoplay(match_of(game).deal, seat)[-1]
        assert discard["type"] == "discard"
        clock.advance(ASYNC_LIMIT + timedelta(seconds=1))

        def move(game_id=game.pk, user=user, version=game.version, discard=discard):
            try:
                game_services.make_move(game_id=game_id, user=user, version=version, action=discard)
            except ClubError as refusal:
                return status_of(refusal)
            return 200

        swept, status = run_in_threads(timeouts.sweep, move)
        outcomes.add(status)
        discards = Move.objects.filter(game=game, seat=seat, action__type="discard")
        assert discards.count() == 1
        if status == 200:
            assert not discards.get().automatic
        else:
            assert (status, swept) == (409, 1)
            assert discards.get().automatic
        game.refresh_from_db()
        assert game.turn_seat == (seat + 1) % 4
    assert outcomes <= {200, 409}


def test_killed_sweep_leaves_the_turn_for_the_next_one():
    game = started_game()
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))

    class WorkerKilled(Exception):
        pass

    with pytest.raises(WorkerKilled), transaction.atomic():
        locked = game_services.lock_game(game_id=game.pk)
        timed_out: list[int] = []
        assert timeouts.time_out_locked(locked=locked, now=clock.now(), timed_out=timed_out)
        timeouts.count_timeouts(seat_ids=timed_out)
        raise WorkerKilled  # dies before the commit
    assert autoplayed(game) == []

    assert timeouts.sweep() == 1
    assert timeouts.sweep() == 0
    assert {move.seat for move in autoplayed(game)} == {turn_of(game)}
    drain_outbox()
    assert Notification.objects.filter(kind="autoplayed").count() == 1


def test_three_timeouts_in_a_row_empty_the_seat_and_the_game_waits_a_turn_for_a_bot():
    game = started_game(length=Game.Length.MATCH)
    culprit = turn_of(game)
    culprit_user, partner = user_at(game, culprit), user_at(game, (culprit + 2) % 4)
    version = game.version
    game = time_out_three_times(game)

    # The others still play: the seat is empty, the culprit's record has the abandonment.
    assert game.status == Game.Status.ACTIVE and game.turn_seat == culprit
    assert not Seat.objects.filter(game=game, seat=culprit).exists()
    assert Abandonment.objects.get(game=game).user == culprit_user
    culprit_user.refresh_from_db()
    assert player_stats(user=culprit_user) == {"played": 1, "won": 0, "abandoned": 1}
    assert game.turn_started_at is not None
    assert game.turn_deadline == game.turn_started_at + ASYNC_LIMIT
    assert timeouts.sweep() == 0  # it waits for a bot the whole turn
    clock.advance(ASYNC_LIMIT - timedelta(seconds=1))
    assert timeouts.sweep() == 0

    # Nobody gave the seat to a bot: the game ends abandoned, the culprit's team losing.
    clock.advance(timedelta(seconds=1))
    assert timeouts.sweep() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert game.abandoned_by_seat == culprit
    assert game.winner_team == 1 - culprit % 2
    assert game.version > version  # the others' turns stay played
    culprit_user.refresh_from_db()
    partner.refresh_from_db()
    assert player_stats(user=culprit_user) == {"played": 1, "won": 0, "abandoned": 1}
    assert player_stats(user=partner)["abandoned"] == 0  # the partner is not blamed
    drain_outbox()
    assert Notification.objects.filter(user=partner, kind="game_finished").count() == 1
    assert timeouts.sweep() == 0  # finished: no deadline any more


def test_the_last_person_at_a_table_of_bots_abandons_it_at_once():
    person = new_user()
    game = game_services.open_table(
        user=person, mode=Game.Mode.ASYNC, length=Game.Length.MATCH, rules={}, private=False
    )
    for seat in (1, 2, 3):
        game_services.seat_bot(game_id=game.pk, user=person, seat=seat, level="beginner")
    game.refresh_from_db()
    for _turn in range(200):  # the bots play their turns, the person lets every one run out
        if game.status != Game.Status.ACTIVE:
            break
        clock.advance(ASYNC_LIMIT)
        timeouts.sweep()
        game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.abandoned_by_seat == 0
    assert Seat.objects.get(game=game, seat=0).consecutive_timeouts == 3
    assert not Abandonment.objects.exists()
    person.refresh_from_db()
    assert player_stats(user=person) == {"played": 1, "won": 0, "abandoned": 1}


def test_a_move_by_the_player_resets_the_count():
    game = started_game(length=Game.Length.MATCH)
    culprit = turn_of(game)

    def time_out_then_come_round() -> None:
        clock.advance(ASYNC_LIMIT)
        assert timeouts.sweep() == 1
        game.refresh_from_db()
        while game.turn_seat != culprit:
            play_turn(game.pk)
            game.refresh_from_db()

    time_out_then_come_round()
    time_out_then_come_round()
    assert Seat.objects.get(game=game, seat=culprit).consecutive_timeouts == 2
    play_turn(game.pk)  # the culprit plays once
    assert Seat.objects.get(game=game, seat=culprit).consecutive_timeouts == 0
    game.refresh_from_db()
    while game.turn_seat != culprit:
        play_turn(game.pk)
        game.refresh_from_db()
    time_out_then_come_round()
    time_out_then_come_round()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_real_worker_sweeps_overdue_games(celery_worker):
    games = [started_game() for _ in range(3)]
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))
    sweep_deadlines.delay()
    wait_for(lambda: all(autoplayed(game) for game in games))
    for game in games:
        seats = {move.seat for move in autoplayed(game)}
        assert seats == {turn_of(game)}
    wait_for(lambda: Notification.objects.filter(kind="autoplayed").count() == 3)


def test_a_turn_left_half_done_is_finished_from_where_it_stands():
    game = started_game()
    seat = turn_of(game)
    outcome = game_services.make_move(
        game_id=game.pk, user=user_at(game, seat), version=game.version, action={"type": "draw"}
    )
    assert isinstance(outcome, game_services.MoveResult)
    clock.advance(ASYNC_LIMIT)
    assert timeouts.sweep() == 1
    moves = autoplayed(game)
    assert moves[0].action["type"] != "draw"
    assert moves[-1].action["type"] == "discard"
    game.refresh_from_db()
    assert game.turn_seat == (seat + 1) % 4


def test_a_broken_game_does_not_hold_up_the_others(monkeypatch, caplog):
    broken, healthy = started_game(), started_game()
    real_bot_turn = timeouts.bot_turn

    def bot_turn_failing_for_one_game(*, game, match, seat, level):
        if game.pk == broken.pk:
            raise RuntimeError("engine bug")
        return real_bot_turn(game=game, match=match, seat=seat, level=level)

    monkeypatch.setattr(timeouts, "bot_turn", bot_turn_failing_for_one_game)
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))
    assert timeouts.sweep() == 1  # the healthy game's turn: a failed one is no turn played
    assert autoplayed(healthy) and not autoplayed(broken)
    assert f"Timing out game {broken.pk} failed" in caplog.text
    drain_outbox()
    assert Notification.objects.filter(kind="autoplayed").count() == 1


def test_a_broken_game_is_retried_with_a_doubling_delay_until_it_goes_through(monkeypatch):
    broken = started_game()
    real_bot_turn = timeouts.bot_turn

    def failing_bot_turn(*, game, match, seat, level):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(timeouts, "bot_turn", failing_bot_turn)

    def failures_after_a_sweep() -> int:
        assert timeouts.sweep() == 0
        broken.refresh_from_db()
        return broken.sweep_failures

    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))
    assert failures_after_a_sweep() == 1
    assert failures_after_a_sweep() == 1  # backing off: not tried every second
    clock.advance(timeouts.SWEEP_RETRY_FIRST)
    assert failures_after_a_sweep() == 2
    clock.advance(timeouts.SWEEP_RETRY_FIRST)
    assert failures_after_a_sweep() == 2  # the second failure waits twice as long

    monkeypatch.setattr(timeouts, "bot_turn", real_bot_turn)
    clock.advance(timeouts.SWEEP_RETRY_FIRST)
    assert timeouts.sweep() == 1
    assert autoplayed(broken)
    broken.refresh_from_db()
    assert (broken.sweep_failures, broken.sweep_retry_at) == (0, None)


def test_a_workers_own_clock_does_not_matter(monkeypatch):
    """A worker whose clock runs two days ahead plays nothing early: the database decides."""
    game = started_game()
    skewed = timezone.now() + timedelta(days=2)
    monkeypatch.setattr(timezone, "now", lambda: skewed)
    assert timeouts.sweep() == 0
    assert autoplayed(game) == []
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))
    assert timeouts.sweep() == 1
