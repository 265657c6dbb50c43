"""Turn deadlines and absent players (RULES.md R-CLUB-1/2).

Every active game stores its current turn's deadline (`Game.turn_deadline`, indexed). A beat
task sweeps overdue games every second: it claims them with SELECT … FOR UPDATE SKIP LOCKED and
plays the turn through `apply_actions_locked`, the move service the API uses, under the same row
lock, so a sweep and a player's move (or two sweeps) can never both apply. A sweep killed midway
rolls back; the next one finds the same games still overdue. Time is the database's
(`canasta_club.clock`), never a worker's.

A timeout: the engine's `autoplay` finishes the turn, each action logged as automatic, the player
is told ("autoplayed"). The next turn's clock starts at the old deadline, when the turn really
ended, however late the sweep ran (yet never leaving the next player less than half a turn).
Three timeouts in a row in an async game abandon it.

Live games: a player not seen for 60 seconds (`Seat.last_seen_at`) is marked absent and their
turns are played at once, until any request of theirs brings them back.
"""

import logging
import time
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Value

from accounts.models import User
from canasta_club import clock
from games import errors
from games.engine import Match, autoplay
from games.models import Game, Seat
from games.services import apply_actions_locked, finish_game_abandoned
from notifications.services import notifications_buffered, notify

logger = logging.getLogger(__name__)

ABANDON_AFTER_TIMEOUTS = 3
SWEEP_BATCH = 50
MIN_TURN_SHARE_AFTER_OUTAGE = 0.5
# A sweep task stops after this long so a worker is never tied up for good; beat sends the next.
SWEEP_BUDGET_SECONDS = 30.0


def _stale(now: datetime) -> Q:
    """Seats whose player has not been seen for the live absence grace (60 s)."""
    seen_before = now - settings.ABSENCE_GRACE[Game.Mode.LIVE]
    return Q(last_seen_at__lt=seen_before) | Q(last_seen_at__isnull=True)


def _is_stale(seat: Seat, now: datetime) -> bool:
    seen_before = now - settings.ABSENCE_GRACE[Game.Mode.LIVE]
    return seat.last_seen_at is None or seat.last_seen_at < seen_before


def _live_due(now: datetime) -> QuerySet[Game]:
    """Live games whose turn must be played now: the deadline passed, or the player to move is
    absent while someone else is still at the table (a table everyone left only moves at the
    turn limit)."""
    absent_to_move = Exists(
        Seat.objects.filter(_stale(now), game=OuterRef("pk"), seat=OuterRef("turn_seat"))
    )
    someone_present = Exists(Seat.objects.filter(game=OuterRef("pk")).exclude(_stale(now)))
    return Game.objects.filter(
        Q(turn_deadline__lte=now) | (absent_to_move & someone_present),
        status=Game.Status.ACTIVE,
        mode=Game.Mode.LIVE,
    )


def _claim(games: QuerySet[Game], now: datetime, limit: int) -> list[Game]:
    return list(
        games.select_for_update(skip_locked=True, of=("self",))
        .annotate(db_now=Value(now))
        .prefetch_related("seats")
        .order_by("turn_deadline")[:limit]
    )


def sweep_until_done(*, budget_seconds: float = SWEEP_BUDGET_SECONDS) -> int:
    """Sweep batch after batch until nothing is due or the time budget is spent (the next beat
    tick goes on); returns how many games were handled."""
    started = time.monotonic()
    mark_absences()
    handled = 0
    while time.monotonic() - started < budget_seconds:
        batch = sweep()
        handled += batch
        if batch < SWEEP_BATCH:
            break
    return handled


def sweep(*, batch_size: int = SWEEP_BATCH) -> int:
    """Play one batch of due turns; returns how many games were handled.

    Claims up to `batch_size` due games nobody else holds (SKIP LOCKED), live games first (their
    players are waiting), then the oldest deadlines, and plays them in one transaction. Should a
    game fail, the batch is rolled back and played again with a savepoint per game, so one broken
    game does not hold up the others (savepoints cost two round trips a game: not the rule).
    """
    try:
        return _sweep_batch(batch_size, isolate_games=False)
    except Exception:
        logger.exception("A game of the batch failed; playing the batch game by game")
        return _sweep_batch(batch_size, isolate_games=True)


def _sweep_batch(batch_size: int, *, isolate_games: bool) -> int:
    timed_out: list[int] = []  # seats whose counter goes up, in one UPDATE for the batch
    with transaction.atomic(), notifications_buffered() as notifications:
        now = clock.now()
        games = _claim(_live_due(now), now, batch_size)
        if len(games) < batch_size:
            overdue = Game.objects.filter(status=Game.Status.ACTIVE, turn_deadline__lte=now)
            overdue = overdue.exclude(pk__in=[game.pk for game in games])
            games += _claim(overdue, now, batch_size - len(games))
        for game in games:
            if not isolate_games:
                time_out_locked(game=game, now=now, timed_out=timed_out)
                continue
            written, counted = len(notifications), len(timed_out)
            try:
                with transaction.atomic():
                    time_out_locked(game=game, now=now, timed_out=timed_out)
            except Exception:
                del notifications[written:], timed_out[counted:]
                logger.exception("Timing out game %s failed; the next sweep retries", game.pk)
        count_timeouts(seat_ids=timed_out)
    return len(games)


def count_timeouts(*, seat_ids: list[int]) -> None:
    """One more timeout in a row for each seat (a move by the player resets it)."""
    Seat.objects.filter(pk__in=seat_ids).update(consecutive_timeouts=F("consecutive_timeouts") + 1)


def mark_absences() -> None:
    """Live seats: absent once unseen for 60 s, present again after any request.

    The flag is what the table shows; the sweep itself goes by `last_seen_at`."""
    now = clock.now()
    live = Seat.objects.filter(game__status=Game.Status.ACTIVE, game__mode=Game.Mode.LIVE)
    live.filter(_stale(now), is_absent=False).update(is_absent=True)
    live.filter(is_absent=True).exclude(_stale(now)).update(is_absent=False)


def time_out_locked(*, game: Game, now: datetime, timed_out: list[int]) -> bool:
    """Play the turn of a locked game if it is due (re-checked here); True when it acted.

    The timed-out seat's id goes into `timed_out`; the caller counts them (`count_timeouts`)
    in the same transaction.
    """
    if game.status != Game.Status.ACTIVE or game.turn_seat is None or game.state is None:
        return False
    seats = list(game.seats.all())
    seat = next(seat for seat in seats if seat.seat == game.turn_seat)
    overdue = game.turn_deadline is not None and game.turn_deadline <= now
    absent = (
        game.mode == Game.Mode.LIVE
        and _is_stale(seat, now)
        and not all(_is_stale(other, now) for other in seats)
    )
    if not (overdue or absent):
        return False
    timed_out.append(seat.pk)
    timeouts_in_a_row = seat.consecutive_timeouts + 1
    if game.mode == Game.Mode.ASYNC and timeouts_in_a_row >= ABANDON_AFTER_TIMEOUTS:
        finish_game_abandoned(game=game, seat=seat.seat)
        return True
    match = Match.from_dict(game.state)
    actions = autoplay(match.deal, seat.seat)
    version_before = game.version
    turn_ended_at = _turn_ended_at(game, now) if overdue else clock.now()
    apply_actions_locked(
        game=game,
        seat=seat.seat,
        actions=actions,
        automatic=True,
        turn_started_at=turn_ended_at,
    )
    notify(
        user_id=seat.user_id,
        kind="autoplayed",
        game_id=game.pk,
        payload={
            "seat": seat.seat,
            "reason": "timeout" if overdue else "absent",
            "actions": [action["type"] for action in actions],
            "timeouts_in_a_row": timeouts_in_a_row,
        },
        dedupe_key=f"{game.pk}:{version_before}",
    )
    return True


def _turn_ended_at(game: Game, now: datetime) -> datetime:
    """The turn ended at its deadline, not when this sweep got to it; but after an outage the next
    player still gets at least half a turn, so a long worker outage cannot time out turns in a
    cascade (and abandon async games) before anyone could play them."""
    assert game.turn_deadline is not None
    return max(
        game.turn_deadline, now - settings.TURN_LIMIT[game.mode] * MIN_TURN_SHARE_AFTER_OUTAGE
    )


def reclaim_seat(*, game_id: int, user: User) -> Seat:
    """The player is here (heartbeat): seen now, no longer absent."""
    seat = Seat.objects.filter(game_id=game_id, user=user).first()
    if seat is None:
        if not Game.objects.filter(pk=game_id).exists():
            raise errors.game_not_found()
        raise errors.not_seated()
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=clock.now_expression(), is_absent=False)
    seat.refresh_from_db()
    return seat
