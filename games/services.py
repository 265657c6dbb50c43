"""Writes: opening tables, seating, starting, and the one move service.

Every action reaches the engine through `apply_actions_locked`, inside a transaction holding the
game row lock (`lock_game`), so moves of one game are applied strictly one after another.
"""

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import User
from canasta_club import clock
from canasta_club.errors import ClubError, Conflict, Forbidden, Invalid, KeyReused
from canasta_club.i18n import text
from games import bots, errors, live, presence, selectors, store, time_off
from games.away import deadline_after
from games.engine import IllegalMove, Match, Rules
from games.engine.bots import LEVELS as BOT_LEVELS
from games.errors import IllegalMoveRefused
from games.models import Abandonment, DealRecord, Game, IdempotentResponse, Move, Seat
from games.store import LoadedGame
from notifications.models import Kind
from notifications.services import notify

# Tables one user may have opened and still waiting for players (lobby spam).
MAX_WAITING_TABLES = 5
# How long a retry with the same Idempotency-Key gets the first answer back (as Stripe: a day).
IDEMPOTENCY_KEY_TTL = timedelta(hours=24)


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
class StoredAnswer:
    """The API's answer to a request the engine judged, kept for retries with its key."""

    status_code: int
    body: dict[str, Any]


@dataclass(frozen=True)
class Idempotency:
    """A move request's Idempotency-Key, and how the API answers a request the engine judged
    (the move made, or refused as illegal): that answer is stored with the move, in its
    transaction."""

    key: str
    answer: Callable[[MoveResult | IllegalMoveRefused], StoredAnswer]


def _not_seated(table: LoadedGame, user: User) -> ClubError:
    """`not_seated`; `not_found` for a private table the user may not see (it stays unknown)."""
    if not selectors.may_see(table=table, viewer=user):
        return errors.game_not_found()
    return errors.not_seated()


def _refuse_suspended(user: User) -> None:
    if user.is_suspended(now=clock.now()):
        raise Forbidden(
            "suspended",
            text(
                "Ваша учётная запись временно отстранена от игр.",
                "Your account is suspended from play.",
            ),
        )


def lock_game(*, game_id: int) -> LoadedGame:
    """Inside a transaction: the game row, locked, with its seats and the club's clock."""
    locked = store.load(game_id=game_id, for_update=True)
    if locked is None:
        raise Game.DoesNotExist(f"Game {game_id} does not exist.")
    return locked


def _lock_game_or_404(game_id: int) -> LoadedGame:
    try:
        return lock_game(game_id=game_id)
    except Game.DoesNotExist:
        raise errors.game_not_found() from None


def _check_seat(rules: Rules, seat: int) -> None:
    """A seat of this table (Rules.seating): 0-1 at two, 0-2 at three, 0-3 at four, 0-5 at six."""
    seats = rules.seating.seats
    if seat not in seats:
        message = text(
            f"За этим столом места с 0 по {seats[-1]}.", f"This table's seats are 0 to {seats[-1]}."
        )
        # The API's shape of a field refused (`invalid` with the messages per field).
        raise Invalid("invalid", message, errors={"seat": [message]})


def validated_rules(*, length: str, options: dict[str, Any]) -> Rules:
    """The engine's Rules for a table; bad options are Invalid `invalid_rules` with the reason.

    The options are checked as sent for every length, so a bad `target` is refused even for a
    single deal, which then plays with no target (R-GAME-2).
    """
    try:
        rules = Rules.from_options(options)
    except (ValueError, TypeError) as exc:
        raise Invalid("invalid_rules", str(exc)) from None
    if length == Game.Length.DEAL:
        return Rules.from_options({**rules.to_options(), "target": None})
    if rules.target is None:
        raise Invalid(
            "invalid_rules",
            text(
                "Для партии до победы нужна цель (target), например 5000 или 2500.",
                "A match needs a target score, e.g. 5000 or 2500.",
            ),
        )
    return rules


@transaction.atomic
def open_table(
    *, user: User, mode: str, length: str, rules: dict[str, Any], private: bool, seat: int = 0
) -> Game:
    """Opens a table with its creator seated at `seat`; at most MAX_WAITING_TABLES waiting ones."""
    _refuse_suspended(user)
    engine_rules = validated_rules(length=length, options=rules)
    _check_seat(engine_rules, seat)
    # The user's row lock serialises their concurrent opens, so the cap holds.
    User.objects.select_for_update(of=("self",)).filter(pk=user.pk).values_list("pk").get()
    if Game.objects.filter(created_by=user, status=Game.Status.WAITING).count() >= (
        MAX_WAITING_TABLES
    ):
        raise Conflict(
            "too_many_open_tables",
            text(
                f"У вас уже {MAX_WAITING_TABLES} столов ждут игроков: начните или закройте один.",
                f"You already have {MAX_WAITING_TABLES} tables waiting for players: "
                "start or leave one first.",
            ),
        )
    game = Game.objects.create(
        mode=mode,
        length=length,
        rules=engine_rules.to_options(),
        private=private,
        invite_code=secrets.token_urlsafe(9) if private else "",
        created_by=user,
        scores=[0 for _team in engine_rules.seating.teams],
    )
    Seat.at_table(game=game, user=user, seat=seat, last_seen_at=clock.now_expression()).save()
    return game


@transaction.atomic
def join_table(*, game_id: int, user: User, seat: int, invite_code: str = "") -> LoadedGame:
    """Takes a free seat; the player taking the table's last free seat starts the game."""
    _refuse_suspended(user)
    locked = _lock_game_or_404(game_id)
    game = locked.game
    # A private table without its code (or once it has started) is one the user may not know
    # of: the same 404 as detail, moves and export, never a 409 or 403 that tells it exists.
    if not selectors.may_see(table=locked, viewer=user, invite_code=invite_code):
        raise errors.game_not_found()
    if game.status != Game.Status.WAITING:
        raise Conflict(
            "game_not_waiting", text("Эта игра уже началась.", "This game has already started.")
        )
    # Only its creator may see a private table without the code: they still need it to sit.
    if game.private and not selectors.invite_code_matches(game=game, invite_code=invite_code):
        raise Forbidden("bad_invite_code", text("Неверный код приглашения.", "Wrong invite code."))
    if locked.seat_of(user) is not None:
        raise Conflict(
            "already_seated",
            text("Вы уже сидите за этим столом.", "You already have a seat at this table."),
        )
    _check_free_seat(locked, seat)
    return _seat_and_start(locked, user=user, seat=seat)


def _check_free_seat(locked: LoadedGame, seat: int) -> None:
    _check_seat(Rules.from_options(locked.game.rules), seat)
    if any(taken.seat == seat for taken in locked.seats):
        raise Conflict("seat_taken", text("Это место уже занято.", "This seat is taken."))


def _seat_and_start(locked: LoadedGame, *, user: User, seat: int) -> LoadedGame:
    Seat.at_table(game=locked.game, user=user, seat=seat, last_seen_at=locked.now).save()
    # Read again: the game now has a new seat.
    locked = lock_game(game_id=locked.game.pk)
    if len(locked.seats) == selectors.seating_of(game=locked.game).players:
        _start_game(locked)
    live.announce_after_commit(game_id=locked.game.pk, version=locked.game.version)
    return locked


@transaction.atomic
def seat_bot(*, game_id: int, user: User, seat: int, level: str) -> LoadedGame:
    """Gives an empty seat to a bot of `level`: before the start (the table's creator; the last
    seat taken starts the game), or in a game waiting on a seat its player abandoned (the
    creator while still at the table, else any person there: `selectors.may_seat_bots`), where
    the bot takes over that seat's hand and turn. Each bot at a table is its own player (a User
    marked as a bot)."""
    locked = _lock_game_or_404(game_id)
    game = locked.game
    if not selectors.may_seat_bots(table=locked, user=user):
        if not selectors.may_see(table=locked, viewer=user):
            raise errors.game_not_found()
        raise Forbidden(
            "not_creator",
            text(
                "Посадить бота может только тот, кто открыл стол, а если он ушёл из-за стола — "
                "любой игрок за ним.",
                "Only the player who opened the table may seat a bot (once they have left it, "
                "any player at the table).",
            ),
        )
    _check_seat(Rules.from_options(game.rules), seat)
    empty = selectors.empty_seats(table=locked)
    if game.status != Game.Status.WAITING and not empty:
        raise Conflict(
            "game_not_waiting", text("Эта игра уже началась.", "This game has already started.")
        )
    if seat not in empty:
        raise Conflict("seat_taken", text("Это место уже занято.", "This seat is taken."))
    if level not in BOT_LEVELS:
        raise Invalid(
            "invalid_bot_level",
            text(
                "Уровень бота: beginner (новичок), club (клуб) или expert (мастер).",
                "A bot's level is beginner, club or expert.",
            ),
        )
    seated = {taken.user_id for taken in locked.seats}
    bot = bots.free_bot(level=level, besides=seated)
    if game.status == Game.Status.WAITING:
        return _seat_and_start(locked, user=bot, seat=seat)
    Seat.at_table(game=game, user=bot, seat=seat, last_seen_at=locked.now).save()
    locked = lock_game(game_id=game.pk)
    assert locked.game.state is not None  # an active game
    # The abandoned seat was the one to move: its turn starts again, the bot's (after its pause).
    _start_turn(locked, Match.from_dict(locked.game.state), locked.now)
    store.write(game=locked.game, moves=[])
    live.announce_after_commit(game_id=game.pk, version=locked.game.version)
    return locked


@transaction.atomic
def leave_table(*, game_id: int, user: User) -> LoadedGame | None:
    """Frees the caller's seat before the start; an emptied table is removed (None)."""
    locked = _lock_game_or_404(game_id)
    game = locked.game
    seat = locked.seat_of(user)
    if seat is None:
        raise _not_seated(locked, user)
    if game.status != Game.Status.WAITING:
        raise Conflict(
            "game_started",
            text(
                "Игра уже началась: место нельзя освободить.",
                "The game has started; the seat cannot be left.",
            ),
        )
    seat.delete()
    live.announce_after_commit(game_id=game.pk, version=game.version)
    if not Seat.objects.filter(game=game).exists():
        game.delete()
        return None
    return lock_game(game_id=game.pk)


def _start_turn(locked: LoadedGame, match: Match, started_at: datetime) -> None:
    """The clock of the seat the deal waits for (`to_act`: the seat on turn, or the partner a
    question waits for). A bot's move is due after a short pause: the deadline sweep plays it
    from the worker, as it plays a timed-out turn (games.timeouts)."""
    game = locked.game
    game.turn_seat = match.deal.to_act
    game.turn_started_at = started_at
    limit = settings.BOT_PAUSE if _bot_to_move(locked) else settings.TURN_LIMIT
    # A correspondence clock does not run while its player is away or the game is paused.
    player = next((seat.user for seat in locked.seats if seat.seat == game.turn_seat), None)
    away = time_off.turn_away(game, player)
    game.turn_deadline = deadline_after(started_at, limit[game.mode], away)


def _bot_to_move(locked: LoadedGame) -> bool:
    turn = locked.game.turn_seat
    return any(seat.seat == turn and seat.user.is_bot for seat in locked.seats)


def _notify_turn(locked: LoadedGame, match: Match) -> None:
    """ "Your turn" to the seat the game now waits for, or "your partner asks" when that is a
    question to answer (R-HOUSE-ASK)."""
    game = locked.game
    if game.mode != Game.Mode.ASYNC or game.turn_seat is None or _bot_to_move(locked):
        return
    question = match.deal.question
    asked = question is not None and question["answer"] is None
    notify(
        user_id=locked.seat_users()[game.turn_seat],
        kind=Kind.PARTNER_ASKS if asked else Kind.YOUR_TURN,
        game_id=game.pk,
        payload={"seat": game.turn_seat, "deadline": game.turn_deadline.isoformat()}
        if game.turn_deadline
        else {"seat": game.turn_seat},
        dedupe_key=f"{'partner_asks' if asked else 'your_turn'}:{game.pk}:{game.version}",
    )


def _start_game(locked: LoadedGame) -> None:
    """Every seat is taken: random first dealer (R-DEAL-1), a fresh random seed, deal 1."""
    game = locked.game
    rules = Rules.from_options(game.rules)
    seed = secrets.randbits(128)  # too many to search offline from one's hand and the upcard
    game.seed = seed
    game.first_dealer = secrets.choice(rules.seating.seats)
    match = Match.new(rules, first_dealer=game.first_dealer, seed=seed)
    now = locked.now
    game.state = match.to_dict()
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.deal_number = match.deal_number
    game.scores = list(match.scores)
    _start_turn(locked, match, now)
    game.save()
    seat_users = locked.seat_users()
    for seat, user_id in seat_users.items():
        notify(
            user_id=user_id,
            kind="game_started",
            game_id=game.pk,
            payload={"seat": seat, "mode": game.mode, "length": game.length},
            dedupe_key=f"game_started:{game.pk}:{user_id}",
        )
    _notify_turn(locked, match)


def _finish(locked: LoadedGame, *, winner_team: int | None, finished_at: datetime) -> None:
    game = locked.game
    game.winner_team = winner_team
    game.finished_at = finished_at
    game.turn_seat = None
    game.turn_started_at = None
    game.turn_deadline = None
    for seat in locked.seats:
        notify(
            user_id=seat.user_id,
            kind="game_finished",
            game_id=game.pk,
            payload={
                "status": game.status,
                "scores": list(game.scores),
                "winner_team": winner_team,
                "your_team": seat.team,
                "abandoned_by_seat": game.abandoned_by_seat,
            },
            dedupe_key=f"game_finished:{game.pk}:{seat.user_id}",
        )


def apply_actions_locked(
    *,
    locked: LoadedGame,
    seat: int,
    actions: list[dict[str, Any]],
    automatic: bool,
    turn_started_at: datetime | None = None,
) -> list[Move]:
    """Applies `actions` of `seat` to a game locked by `lock_game`; the only way moves happen.

    All actions go through the engine before anything is written, so an IllegalMove (raised
    unchanged) leaves the database untouched. Returns the moves written (without their row ids,
    which the one statement that writes them does not read back).
    """
    moves, _match = _apply_locked(
        locked=locked,
        seat=seat,
        actions=actions,
        automatic=automatic,
        turn_started_at=turn_started_at,
    )
    return moves


def _apply_locked(
    *,
    locked: LoadedGame,
    seat: int,
    actions: list[dict[str, Any]],
    automatic: bool,
    turn_started_at: datetime | None,
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
    if match.over:
        game.status = Game.Status.FINISHED
        _finish(locked, winner_team=match.winner, finished_at=now)
    elif match.deal.phase == "draw" or match.deal.to_act != seat:
        # A new turn begins (the previous one ended with a discard, or a new deal started), or
        # within a turn the deal now waits for another seat (a question to the partner, its
        # answer, the partner laying down after one went out): that seat's clock starts.
        _start_turn(locked, match, now)
        if game.turn_seat != seat or finished_deals:
            _notify_turn(locked, match)
    store.write(game=game, moves=moves)
    live.announce_after_commit(game_id=game.pk, version=game.version)
    return moves, match


def abandon_seat(*, locked: LoadedGame, seat: Seat) -> None:
    """The seat's player abandons the game (game locked by the caller). While another person
    still sits at the table, the seat is emptied (`Abandonment` keeps it on the player's record)
    and the game waits one turn limit for a bot to take it (`seat_bot`); the deadline sweep ends
    it abandoned should nobody give it one. With nobody else there it ends abandoned now."""
    game = locked.game
    others = [other for other in locked.seats if other.pk != seat.pk and not other.user.is_bot]
    if not others:
        finish_game_abandoned(locked=locked, seat=seat.seat)
        return
    Abandonment.objects.create(
        game=game, user_id=seat.user_id, seat=seat.seat, created_at=locked.now
    )
    seat.delete()
    game.turn_started_at = locked.now
    game.turn_deadline = deadline_after(
        locked.now, settings.TURN_LIMIT[game.mode], time_off.turn_away(game, None)
    )
    store.write(game=game, moves=[])
    live.announce_after_commit(game_id=game.pk, version=game.version)


def finish_game_abandoned(*, locked: LoadedGame, seat: int) -> None:
    """The seat's team loses by abandoning (game locked by the caller): the other team wins,
    or at a table of three teams the other team ahead (none when they are level)."""
    game = locked.game
    game.status = Game.Status.ABANDONED
    game.abandoned_by_seat = seat
    seating = selectors.seating_of(game=game)
    losers = seating.team_of(seat)
    others = [team for team in range(len(seating.teams)) if team != losers]
    best = max(game.scores[team] for team in others)
    leaders = [team for team in others if game.scores[team] == best]
    _finish(locked, winner_team=leaders[0] if len(leaders) == 1 else None, finished_at=locked.now)
    store.write(game=game, moves=[])
    live.announce_after_commit(game_id=game.pk, version=game.version)


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


def request_fingerprint(*, version: int, action: dict[str, Any]) -> str:
    """sha256 of the move request's canonical JSON: tells a retry from another request."""
    canonical = json.dumps(
        {"version": version, "action": action},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def make_move(
    *,
    game_id: int,
    user: User,
    version: int,
    action: dict[str, Any],
    idempotency: Idempotency | None = None,
) -> MoveResult | StoredAnswer:
    """One move by a seated player, against the `version` the client saw.

    Refusals are raised after the transaction commits the player's presence. With
    `idempotency`, the answer of a request the engine judged (made or refused) is stored with
    the request's fingerprint, and a retry of the same request gets it back (StoredAnswer);
    the same key with another request is KeyReused. The game row lock serialises concurrent
    duplicates, so the second one always finds the first's answer.
    """
    outcome: MoveResult | ClubError
    with transaction.atomic():
        locked = _lock_game_or_404(game_id)
        game = locked.game
        seat = locked.seat_of(user)
        if seat is None:
            raise _not_seated(locked, user)
        fingerprint = ""
        if idempotency is not None:
            fingerprint = request_fingerprint(version=version, action=action)
            stored = (
                IdempotentResponse.objects.filter(game=game, user=user, key=idempotency.key)
                .values_list("fingerprint", "status_code", "body")
                .first()
            )
            if stored is not None and stored[0] != fingerprint:
                raise KeyReused(
                    "idempotency_key_reused",
                    text(
                        "Этот Idempotency-Key уже использован для другого хода.",
                        "This Idempotency-Key was already used for another move.",
                    ),
                )
            if stored is not None:
                return StoredAnswer(status_code=stored[1], body=stored[2])
        try:
            outcome = _move_locked(locked, seat, version, action)
        except ClubError as refusal:
            outcome = refusal
        # Only requests the engine judged are final: a move made or refused. A stale version or
        # a game not on was never tried, so a retry with the same key tries again.
        if idempotency is not None and isinstance(outcome, MoveResult | IllegalMoveRefused):
            answer = idempotency.answer(outcome)
            IdempotentResponse.objects.create(
                game=game,
                user=user,
                key=idempotency.key,
                fingerprint=fingerprint,
                status_code=answer.status_code,
                body=answer.body,
            )
        if isinstance(outcome, MoveResult) and seat.consecutive_timeouts:
            # The player is back and playing: no timeouts in a row any more.
            Seat.objects.filter(pk=seat.pk).update(
                last_seen_at=locked.now, is_absent=False, consecutive_timeouts=0
            )
        else:
            presence.mark_seen(seat=seat, now=locked.now)
    if isinstance(outcome, ClubError):
        raise outcome
    return outcome


def purge_idempotency_keys() -> int:
    """Forget stored answers older than IDEMPOTENCY_KEY_TTL; returns how many went."""
    cutoff = clock.now() - IDEMPOTENCY_KEY_TTL
    deleted, _ = IdempotentResponse.objects.filter(created_at__lt=cutoff).delete()
    return deleted
