"""Starting a tournament, and the sweep that keeps every tournament going.

The sweep (a beat task every 2 s) claims tournaments with work due, one at a time, with
SELECT … FOR UPDATE SKIP LOCKED: one to start (`starts_at` passed: `due_at`), one whose round's
last game has ended (found by the query itself, so no message from the games is needed), one
whose round's deadline has passed (`due_at`). Each is advanced in its own transaction, so a
worker killed midway leaves the tournament as it was and the next sweep does the same work;
a lost beat tick only delays it.

A round past its deadline has its unfinished games played out by the club's bots, each game in
its own transaction after the tournament's commits (a lease on `due_at` keeps other sweeps
from playing the same ones meanwhile); once none is left, the next claim ends the round.
"""

import logging
import time
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet

from accounts.models import User
from club import clock
from club.errors import Conflict
from games import services as game_services
from games.models import Game
from tournaments import errors, selectors
from tournaments.models import RoundTable, Tournament
from tournaments.services.locking import lock_tournament
from tournaments.services.rounds import cancel_locked, end_round_locked, start_locked

logger = logging.getLogger(__name__)

# A sweep task stops claiming after this long; beat sends the next.
SWEEP_BUDGET_SECONDS = 30.0
# How long the games of a round past its deadline are left to the sweep playing them out
# before another sweep may take them over (should that one die).
PLAY_OUT_LEASE = timedelta(minutes=2)


@transaction.atomic(durable=True)
def start_tournament(*, tournament_id: int, user: User) -> Tournament:
    """The creator starts the tournament now: its first round is paired and its games opened
    in this transaction; 409 `not_enough_entries` leaves it open, nothing made."""
    tournament = lock_tournament(tournament_id)
    if tournament.created_by_id != user.pk:
        raise errors.not_creator()
    if tournament.status != Tournament.Status.OPEN:
        raise errors.not_open()
    start_locked(tournament, clock.now())
    return tournament


def _due(now: datetime) -> QuerySet[Tournament]:
    round_under_way = RoundTable.objects.filter(
        round__tournament=OuterRef("pk"),
        round__number=OuterRef("current_round"),
        game__status=Game.Status.ACTIVE,
    )
    return Tournament.objects.filter(
        Q(status=Tournament.Status.OPEN, due_at__lte=now)
        | Q(status=Tournament.Status.RUNNING) & (Q(due_at__lte=now) | ~Exists(round_under_way))
    )


def advance_locked(tournament: Tournament, now: datetime) -> list[int]:
    """Does the (locked) tournament's due work; returns the games to play out now (its round's
    deadline has passed), for the caller to play after its commit."""
    if tournament.status == Tournament.Status.OPEN:
        if tournament.starts_at is not None and tournament.starts_at <= now:
            try:
                with transaction.atomic():
                    start_locked(tournament, now)
            except Conflict:  # too few entries came
                cancel_locked(tournament, now)
        return []
    if tournament.status != Tournament.Status.RUNNING:
        return []
    round_ = selectors.current_round(tournament)
    assert round_ is not None  # a running tournament has paired its first round
    unfinished = selectors.unfinished_games(round_)
    if not unfinished:
        end_round_locked(tournament, round_, now)
        return []
    if round_.deadline <= now:
        tournament.due_at = now + PLAY_OUT_LEASE
        tournament.save(update_fields=["due_at"])
        return unfinished
    # Nothing is due before the round's deadline (a due_at set earlier by hand).
    tournament.due_at = round_.deadline
    tournament.save(update_fields=["due_at"])
    return []


def sweep_tournaments(*, budget_seconds: float = SWEEP_BUDGET_SECONDS) -> int:
    """Advances every tournament with work due, one transaction each, until none is left or
    the budget is spent; returns how many were advanced."""
    started = time.monotonic()
    advanced = 0
    failed: list[int] = []
    while time.monotonic() - started < budget_seconds:
        claimed: int | None = None
        try:
            with transaction.atomic(durable=True):
                now = clock.now()
                tournament = (
                    _due(now)
                    .exclude(pk__in=failed)
                    .select_for_update(skip_locked=True, of=("self",))
                    .order_by("due_at", "pk")
                    .first()
                )
                if tournament is None:
                    break
                claimed = tournament.pk
                play_out = advance_locked(tournament, now)
        except Exception:
            if claimed is None:
                raise  # the claim itself failed (the database): this sweep cannot go on
            # A bug in one tournament must not hold up the others; the next sweep tries again.
            logger.exception("Advancing tournament %s failed", claimed)
            failed.append(claimed)
            continue
        for game_id in play_out:
            try:
                game_services.play_out(game_id=game_id)
            except Exception:
                # One broken game must not hold up the round's others; after the lease the
                # sweep tries it again.
                logger.exception("Playing out game %s of tournament %s failed", game_id, claimed)
        advanced += 1
    return advanced
