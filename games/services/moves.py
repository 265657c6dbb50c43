"""The one move service, and the one way moves happen.

Every action reaches the engine through `apply_actions_locked`, inside a transaction holding the
game row lock (`lock_game`), so moves of one game are applied strictly one after another.
`make_move` is the entry point (its own durable transaction); `apply_actions_locked` runs inside
a caller's transaction (the deadline sweep's, games.services.timeouts) and opens none.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import User
from club.errors import ClubError, Conflict
from club.i18n import text
from games import errors, live, store
from games.engine import IllegalMove, Match
from games.errors import IllegalMoveRefused
from games.models import DealRecord, Game, Move, Seat
from games.services import idempotency as idempotency_store
from games.services import presence
from games.services.idempotency import Replay
from games.services.locking import lock_game_or_404, not_seated
from games.services.turns import (
    everyone_saw_the_deal,
    finish,
    notify_turn,
    start_clock,
    start_turn,
)
from games.store import LoadedGame


@dataclass(frozen=True)
class MoveResult:
    """A move made: the game as it now is (its `version` included), its state parsed, the
    mover's seat and the moves written."""

    table: LoadedGame
    match: Match
    seat: Seat
    moves: list[Move]

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def version(self) -> int:
        return self.table.game.version


@dataclass(frozen=True)
class Idempotency:
    """A move request's Idempotency-Key, and how the caller answers a request the engine judged
    (the move made, or refused as illegal): that answer is stored with the move, in its
    transaction, and a retry gets it back (`Replay`)."""

    key: str
    answer: Callable[[MoveResult | IllegalMoveRefused], dict[str, Any]]


def apply_actions_locked(
    *,
    locked: LoadedGame,
    seat: int,
    actions: list[dict[str, Any]],
    automatic: bool,
    turn_started_at: datetime | None = None,
    quiet: bool = False,
) -> list[Move]:
    """Applies `actions` of `seat` to a game locked by `lock_game`; the only way moves happen.

    Runs inside the caller's transaction (the one holding the lock) and opens none, so the
    deadline sweep can play many games' turns in its own; not an entry point.

    All actions go through the engine before anything is written, so an IllegalMove (raised
    unchanged) leaves the database untouched. Returns the moves written (without their row ids,
    which the one statement that writes them does not read back). `quiet`: nobody is told that
    a turn is theirs (the club plays the game out: games.services.play_out).
    """
    moves, _match = _apply_locked(
        locked=locked,
        seat=seat,
        actions=actions,
        automatic=automatic,
        turn_started_at=turn_started_at,
        quiet=quiet,
    )
    return moves


def _apply_locked(
    *,
    locked: LoadedGame,
    seat: int,
    actions: list[dict[str, Any]],
    automatic: bool,
    turn_started_at: datetime | None,
    quiet: bool = False,
) -> tuple[list[Move], Match]:
    """apply_actions_locked, also returning the match it produced (spares the answer a reparse)."""
    game = locked.game
    if game.status != Game.Status.ACTIVE or game.state is None:
        raise errors.game_not_active()
    match = Match.from_dict(game.state)
    applied: list[tuple[dict[str, Any], int, dict[str, Any]]] = []
    for action in actions:
        deal_number = match.deal_number
        event = match.apply(seat, action)
        public = dict(event.get("public") or {})
        if event.get("deal_over"):
            public["deal_over"] = True
            public["result"] = event.get("result")
        applied.append((action, deal_number, {"public": public, "private": event.get("private")}))

    moved_at = locked.now
    now = turn_started_at or moved_at
    moves = [
        Move(
            game=game,
            seq=game.version + index,
            deal_number=deal_number,
            seat=seat,
            action=action,
            automatic=automatic,
            public=event["public"],
            private=event["private"] or {},
            created_at=moved_at,
        )
        for index, (action, deal_number, event) in enumerate(applied, start=1)
    ]
    finished_deals = [h for h in match.history if h["number"] >= game.deal_number]
    if finished_deals:
        DealRecord.objects.bulk_create(
            DealRecord(
                game=game,
                number=h["number"],
                dealer=h["dealer"],
                seed=h["seed"],
                result=h["result"],
                scores_after=list(h["scores_after"]),
            )
            for h in finished_deals
        )

    game.version += len(actions)
    game.state = match.to_dict()
    game.deal_number = match.deal_number
    game.scores = list(match.scores)
    if finished_deals and not match.over and game.mode == Game.Mode.LIVE:
        # Between two live deals, time to read the score: the next deal's clock starts when
        # every person has closed the summary, or when the break is over.
        game.deal_break_until = now + settings.DEAL_BREAK
    if match.over:
        game.status = Game.Status.FINISHED
        finish(locked, winner_team=match.winner, finished_at=now)
    elif match.deal.phase == "draw" or match.deal.to_act != seat:
        # A new turn begins (the previous one ended with a discard, or a new deal started), or
        # within a turn the deal now waits for another seat (a question to the partner, its
        # answer, the partner laying down after one went out): that seat's clock starts.
        start_turn(locked, match, now)
        if not quiet and (game.turn_seat != seat or finished_deals):
            notify_turn(locked, match)
    elif (
        game.deal_break_until is not None
        and game.deal_break_until > now
        and everyone_saw_the_deal(locked)
    ):
        # The last person to read the deal's summary moved on instead of pressing «Дальше»:
        # the break is over, the turn's clock starts now.
        start_clock(locked, now)
    store.write(game=game, moves=moves)
    live.announce_after_commit(game_id=game.pk, version=game.version)
    return moves, match


def _move_locked(
    locked: LoadedGame, seat: Seat, version: int, action: dict[str, Any]
) -> MoveResult:
    game = locked.game
    if game.status != Game.Status.ACTIVE:
        raise errors.game_not_active()
    if version != game.version:
        raise Conflict(
            "stale_version",
            text(
                f"Игра уже изменилась: текущая версия {game.version}, получена {version}.",
                f"The game has moved on: current version {game.version}, got {version}.",
            ),
            version=game.version,
        )
    try:
        moves, match = _apply_locked(
            locked=locked, seat=seat.seat, actions=[action], automatic=False, turn_started_at=None
        )
    except IllegalMove as exc:
        raise IllegalMoveRefused(exc) from None
    return MoveResult(table=locked, match=match, seat=seat, moves=moves)


def make_move(
    *,
    game_id: int,
    user: User,
    version: int,
    action: dict[str, Any],
    idempotency: Idempotency | None = None,
) -> MoveResult | Replay:
    """One move by a seated player, against the `version` the client saw.

    Refusals are raised after the transaction commits the player's presence. With
    `idempotency`, the outcome of a request the engine judged (made or refused) and its answer
    are stored with the request's fingerprint, and a retry of the same request gets them back
    (Replay); the same key with another request is KeyReused. The game row lock serialises
    concurrent duplicates, so the second one always finds the first's outcome.
    """
    outcome: MoveResult | ClubError
    with transaction.atomic(durable=True):
        locked = lock_game_or_404(game_id)
        game = locked.game
        seat = locked.seat_of(user)
        if seat is None:
            raise not_seated(locked, user)
        fingerprint = ""
        if idempotency is not None:
            fingerprint = idempotency_store.request_fingerprint(version=version, action=action)
            replay = idempotency_store.replay_of(
                game=game, user=user, key=idempotency.key, fingerprint=fingerprint
            )
            if replay is not None:
                return replay
        # A move closes the summary of the deal finished before it (and so may end the break
        # between two live deals: games.services.turns.start_clock).
        seen_before, finished = seat.deal_seen, game.deal_number - 1
        seat.deal_seen = max(seen_before, finished)
        try:
            outcome = _move_locked(locked, seat, version, action)
        except ClubError as refusal:
            outcome = refusal
            seat.deal_seen = seen_before
        if isinstance(outcome, MoveResult) and (
            seat.consecutive_timeouts or seat.autoplayed or seat.deal_seen != seen_before
        ):
            # The player is back and playing: no timeouts in a row any more, nothing more to
            # tell of the turns the club played for them, the last deal's summary closed.
            Seat.objects.filter(pk=seat.pk).update(
                last_seen_at=locked.now,
                is_absent=False,
                consecutive_timeouts=0,
                autoplayed=[],
                deal_seen=seat.deal_seen,
            )
            # The seat returned (and answered, stored or not) as its row now is.
            seat.last_seen_at, seat.is_absent = locked.now, False
            seat.consecutive_timeouts, seat.autoplayed = 0, []
        else:
            presence.mark_seen(seat=seat, now=locked.now)
        # Only requests the engine judged are final: a move made or refused (the answer shows
        # the mover seen). A stale version or a game not on was never tried, so a retry with
        # the same key tries again.
        if idempotency is not None and isinstance(outcome, MoveResult | IllegalMoveRefused):
            idempotency_store.remember(
                game=game,
                user=user,
                key=idempotency.key,
                fingerprint=fingerprint,
                refused=isinstance(outcome, IllegalMoveRefused),
                answer=idempotency.answer(outcome),
            )
    if isinstance(outcome, ClubError):
        raise outcome
    return outcome
