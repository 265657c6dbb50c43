"""Turn time (RULES.md R-CLUB-1/2): deadlines, absent players' turns and the 80 % reminders.

Every active game stores its current turn's deadline (`Game.turn_deadline`, indexed). A beat
task sweeps overdue games every second: it claims them with SELECT … FOR UPDATE SKIP LOCKED and
plays the turn through `apply_actions_locked`, the move service the API uses, under the same row
lock, so a sweep and a player's move (or two sweeps) can never both apply. A sweep killed midway
rolls back; the next one finds the same games still overdue. Time is the database's
(`club.clock`), never a worker's.

A timeout: a club-level bot finishes the turn from what the seat may see (`games.services.bots`),
each action logged as automatic, the player is told ("autoplayed") unless their table is open (they
see it happen), and in a live game once per absence, not once per turn. The next turn's clock
starts at the old deadline, when the turn really ended, however late the sweep ran (yet never
leaving the next player less than half a turn).
Three timeouts in a row in an async game abandon it: while another person is still at the
table, the seat is emptied and the game waits one turn limit for a bot to take it
(games.services.abandon_seat), and ends abandoned if none does.

Correspondence time off (games.services.time_off): a turn overdue while its player's vacation
covers the deadline, or with automatic vacation hours to spend, is not timed out: the deadline
moves past the vacation hour instead (no timeout counted, so nothing is abandoned). Reminders wait
until the player is back from a vacation or a day off.

Live games: a player not seen for 60 seconds (`Seat.last_seen_at`) is marked absent and their
turns are played at once, until any request of theirs brings them back.

Bot seats: their turn's deadline is a short pause (`settings.BOT_PAUSE`); the sweep plays it with
the bot's level from the worker, as the bot's own move, never blocking a request.
"""

import logging
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet

from club import clock
from games import store
from games.engine import Match
from games.models import Game, Move, Seat, TurnReminder
from games.selectors.presence import away_since, has_table_open, is_stale, stale
from games.selectors.time_off import away_until
from games.services import (
    abandon_seat,
    apply_actions_locked,
    finish_game_abandoned,
    presence,
    time_off,
)
from games.services.bots import TIMEOUT_LEVEL, bot_turn
from games.store import LoadedGame
from notifications.models import Kind
from notifications.services import notifications_buffered, notify

logger = logging.getLogger(__name__)

ABANDON_AFTER_TIMEOUTS = 3
SWEEP_BATCH = 50
MIN_TURN_SHARE_AFTER_OUTAGE = 0.5
# A sweep task stops after this long so a worker is never tied up for good; beat sends the next.
SWEEP_BUDGET_SECONDS = 30.0
# A game the sweep failed on is tried again after 2, 4, 8 … seconds, an hour at most.
SWEEP_RETRY_FIRST = timedelta(seconds=2)
SWEEP_RETRY_MAX = timedelta(hours=1)
# The turns the club played for a player that their table tells them of, the latest.
AUTOPLAYED_KEPT = 12
# An async player is reminded once this share of their turn is gone.
REMINDER_AT_FRACTION = 0.8


def _live_due(now: datetime) -> QuerySet[Game]:
    """Live games whose turn must be played now: the deadline passed, or the player to move is
    absent while someone else is still at the table (a table everyone left only moves at the
    turn limit)."""
    absent_to_move = Exists(
        Seat.objects.filter(
            stale(now), game=OuterRef("pk"), seat=OuterRef("turn_seat"), user__bot_level=""
        )
    )
    someone_present = Exists(Seat.objects.filter(game=OuterRef("pk")).exclude(stale(now)))
    # Between two deals no clock runs, an absent player's neither (games.services.breaks).
    between_deals = Q(deal_break_until__gt=now)
    return Game.objects.filter(
        Q(turn_deadline__lte=now) | (absent_to_move & someone_present & ~between_deals),
        _not_backing_off(now),
        status=Game.Status.ACTIVE,
        mode=Game.Mode.LIVE,
    )


def _not_backing_off(now: datetime) -> Q:
    return Q(sweep_retry_at__isnull=True) | Q(sweep_retry_at__lte=now)


def _retry_delay(failures: int) -> timedelta:
    """Doubling from SWEEP_RETRY_FIRST with each failure in a row, up to SWEEP_RETRY_MAX."""
    return min(SWEEP_RETRY_FIRST * 2 ** min(failures - 1, 20), SWEEP_RETRY_MAX)


def _claim(games: QuerySet[Game], limit: int) -> list[int]:
    """Lock up to `limit` of the games nobody else holds; their ids, oldest deadline first."""
    return list(
        games.select_for_update(skip_locked=True, of=("self",))
        .order_by("turn_deadline")
        .values_list("pk", flat=True)[:limit]
    )


def sweep_until_done(*, budget_seconds: float = SWEEP_BUDGET_SECONDS) -> int:
    """Sweep batch after batch until nothing is due or the time budget is spent (the next beat
    tick goes on); returns how many turns were played (or moved by time off)."""
    started = time.monotonic()
    presence.mark_absences()
    played = 0
    while time.monotonic() - started < budget_seconds:
        claimed, played_now = _sweep(SWEEP_BATCH)
        played += played_now
        if claimed < SWEEP_BATCH:
            break
    return played


def sweep(*, batch_size: int = SWEEP_BATCH) -> int:
    """Play one batch of due turns; returns how many turns were played (or moved by time off).

    Claims up to `batch_size` due games nobody else holds (SKIP LOCKED), live games first (their
    players are waiting), then the oldest deadlines, and plays them in one transaction. Should a
    game fail, the batch is rolled back and played again with a savepoint per game, so one broken
    game does not hold up the others (savepoints cost two round trips a game: not the rule); the
    broken game is tried again after a delay doubling with each failure in a row.
    """
    return _sweep(batch_size)[1]


def _sweep(batch_size: int) -> tuple[int, int]:
    """(games claimed, turns played): a claimed game may turn out not due after all."""
    try:
        return _sweep_batch(batch_size, isolate_games=False)
    except Exception:
        logger.exception("A game of the batch failed; playing the batch game by game")
        return _sweep_batch(batch_size, isolate_games=True)


def _sweep_batch(batch_size: int, *, isolate_games: bool) -> tuple[int, int]:
    timed_out: list[int] = []  # seats whose counter goes up, in one UPDATE for the batch
    with transaction.atomic(), notifications_buffered() as notifications:
        now = clock.now()
        claimed = _claim(_live_due(now), batch_size)
        if len(claimed) < batch_size:
            overdue = Game.objects.filter(
                _not_backing_off(now), status=Game.Status.ACTIVE, turn_deadline__lte=now
            )
            claimed += _claim(overdue.exclude(pk__in=claimed), batch_size - len(claimed))
        games = store.load_many(game_ids=claimed)
        recovered: list[int] = []  # games that failed before and went through now
        played = 0
        for locked in games:
            if not isolate_games:
                played += time_out_locked(locked=locked, now=now, timed_out=timed_out)
            else:
                written, counted = len(notifications), len(timed_out)
                try:
                    with transaction.atomic():
                        played += time_out_locked(locked=locked, now=now, timed_out=timed_out)
                except Exception:
                    del notifications[written:], timed_out[counted:]
                    _back_off(locked.game, now)
                    continue
            if locked.game.sweep_failures:
                recovered.append(locked.game.pk)
        count_timeouts(seat_ids=timed_out)
        if recovered:
            Game.objects.filter(pk__in=recovered).update(sweep_failures=0, sweep_retry_at=None)
    return len(games), played


def _back_off(game: Game, now: datetime) -> None:
    failures = game.sweep_failures + 1
    retry_at = now + _retry_delay(failures)
    Game.objects.filter(pk=game.pk).update(sweep_failures=failures, sweep_retry_at=retry_at)
    logger.exception(
        "Timing out game %s failed (%s in a row); the sweep tries it again at %s",
        game.pk,
        failures,
        retry_at.isoformat(),
    )


def count_timeouts(*, seat_ids: list[int]) -> None:
    """One more timeout in a row for each seat (a move by the player resets it)."""
    Seat.objects.filter(pk__in=seat_ids).update(consecutive_timeouts=F("consecutive_timeouts") + 1)


def time_out_locked(*, locked: LoadedGame, now: datetime, timed_out: list[int]) -> bool:
    """Play the turn of a locked game if it is due (re-checked here); True when it acted.

    The timed-out seat's id goes into `timed_out`; the caller counts them (`count_timeouts`)
    in the same transaction.
    """
    game, seats = locked.game, locked.seats
    if game.status != Game.Status.ACTIVE or game.turn_seat is None or game.state is None:
        return False
    seat = next((seat for seat in seats if seat.seat == game.turn_seat), None)
    overdue = game.turn_deadline is not None and game.turn_deadline <= now
    if seat is None:
        # An abandoned seat nobody gave to a bot within the turn limit: the game ends abandoned.
        if overdue:
            finish_game_abandoned(locked=locked, seat=game.turn_seat)
        return overdue
    if seat.user.is_bot:
        return overdue and _play_bot_turn(locked, seat=seat, now=now)
    absent = (
        game.mode == Game.Mode.LIVE
        and (game.deal_break_until is None or game.deal_break_until <= now)
        and is_stale(seat, now)
        and not all(is_stale(other, now) for other in seats)
    )
    if not (overdue or absent):
        return False
    if game.mode == Game.Mode.ASYNC and time_off.take_overdue_turn(
        game=game, player=seat.user, now=now
    ):
        store.write(game=game, moves=[])  # a vacation took it: the deadline moved
        return True
    timed_out.append(seat.pk)
    timeouts_in_a_row = seat.consecutive_timeouts + 1
    if game.mode == Game.Mode.ASYNC and timeouts_in_a_row >= ABANDON_AFTER_TIMEOUTS:
        abandon_seat(locked=locked, seat=seat)
        return True
    match = Match.from_dict(game.state)
    actions = bot_turn(game=game, match=match, seat=seat.seat, level=TIMEOUT_LEVEL)
    version_before = game.version
    turn_ended_at = _turn_ended_at(game, now) if overdue else clock.now()
    moves = apply_actions_locked(
        locked=locked,
        seat=seat.seat,
        actions=actions,
        automatic=True,
        turn_started_at=turn_ended_at,
    )
    # The first live timeout of the player in this game offers the ways on; later ones do not.
    first_live_timeout = overdue and game.mode == Game.Mode.LIVE and not seat.timed_out_live
    record_autoplayed(
        seat=seat,
        moves=moves,
        reason="timeout" if overdue else "absent",
        first_live_timeout=first_live_timeout,
    )
    if not has_table_open(seat, game.mode, now):
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
            dedupe_key=_autoplayed_key(game, seat, version_before),
        )
    return True


def record_autoplayed(
    *, seat: Seat, moves: list[Move], reason: str, first_live_timeout: bool = False
) -> None:
    """The turn the club played for the seat's player, kept on their seat until their next move
    (games.services.moves.make_move empties it) for their table to tell them: its moves as the
    log has them, their own drawn cards too (the record is theirs alone), and why ("timeout":
    the turn's time ran out; "absent": a live player away, played at once). The latest
    AUTOPLAYED_KEPT turns are kept. The player's first live timeout in the game is marked
    (`offer`: the table offers the ways on with it) and remembered on the seat."""
    turn = {
        "reason": reason,
        "offer": first_live_timeout,
        "moves": [
            {
                "seq": move.seq,
                "deal_number": move.deal_number,
                "action": move.action,
                "public": move.public,
                "private": move.private,
            }
            for move in moves
        ],
    }
    seat.autoplayed = [*seat.autoplayed, turn][-AUTOPLAYED_KEPT:]
    seat.timed_out_live = seat.timed_out_live or first_live_timeout
    Seat.objects.filter(pk=seat.pk).update(
        autoplayed=seat.autoplayed, timed_out_live=seat.timed_out_live
    )


def _autoplayed_key(game: Game, seat: Seat, version_before: int) -> str:
    """A live game tells an absent player once per absence, however many turns the club plays
    meanwhile (every 30 s, or at once when away); an async game once per turn played, each a
    day apart and counting toward abandonment."""
    if game.mode == Game.Mode.LIVE:
        return f"{game.pk}:away-since:{away_since(seat)}"
    return f"{game.pk}:{version_before}"


def _play_bot_turn(locked: LoadedGame, *, seat: Seat, now: datetime) -> bool:
    """A bot seat's turn, due after its pause: its own move (not automatic), never a timeout."""
    game = locked.game
    assert game.state is not None
    match = Match.from_dict(game.state)
    actions = bot_turn(game=game, match=match, seat=seat.seat, level=seat.user.bot_level)
    apply_actions_locked(
        locked=locked, seat=seat.seat, actions=actions, automatic=False, turn_started_at=now
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


def sweep_turn_reminders(*, batch_size: int = 500) -> int:
    """Remind async players when 80 % of their turn is gone; once per turn (TurnReminder)."""
    now = clock.now()
    limit = settings.TURN_LIMIT[Game.Mode.ASYNC]
    remind_before = limit * (1 - REMINDER_AT_FRACTION)
    already_reminded = TurnReminder.objects.filter(
        game=OuterRef("pk"), turn_deadline=OuterRef("turn_deadline")
    )
    reminded = 0
    with transaction.atomic():
        due = list(
            Game.objects.filter(
                status=Game.Status.ACTIVE,
                mode=Game.Mode.ASYNC,
                turn_deadline__gt=now,
                turn_deadline__lte=now + remind_before,
            )
            .exclude(Exists(already_reminded))
            .select_for_update(skip_locked=True, of=("self",))
            .order_by("turn_deadline")
            .only("pk", "turn_seat", "turn_deadline")[:batch_size]
        )
        for game in due:
            deadline = game.turn_deadline
            assert deadline is not None and game.turn_seat is not None  # filtered above
            seat = (
                Seat.objects.filter(game=game, seat=game.turn_seat).select_related("user").first()
            )
            if seat is not None and away_until(seat.user, now) is not None:
                continue  # on vacation or a day off: reminded once back, if still due
            TurnReminder.objects.create(game=game, turn_deadline=deadline)
            if seat is not None:
                notify(
                    user_id=seat.user_id,
                    kind=Kind.TURN_REMINDER,
                    game_id=game.pk,
                    payload={"turn_deadline": deadline.isoformat()},
                    dedupe_key=f"{game.pk}:{deadline.isoformat()}",
                )
                reminded += 1
        # Reminders of turns long over are no longer needed to tell "sent" from "not sent".
        TurnReminder.objects.filter(turn_deadline__lt=now - limit).delete()
    return reminded
