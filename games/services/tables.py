"""Tables before and around play: opening one, taking and leaving seats, seating bots.

Each public function here is a service entry point: one durable transaction, never inside
another's.
"""

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from accounts.models import User
from club import clock
from club.errors import Conflict, Forbidden, Invalid
from club.i18n import text
from games import errors, live, selectors, store
from games.engine import Rules
from games.models import Game, Seat
from games.players import LEVELS as BOT_LEVELS
from games.services import bots, invitations, rating
from games.services.abandonment import give_seat_to_bot_locked, record_abandonment
from games.services.bots import TIMEOUT_LEVEL
from games.services.locking import (
    lock_game,
    lock_game_or_404,
    lock_seated,
    not_seated,
    refuse_suspended,
)
from games.services.turns import start_clock, start_game, unrate
from games.store import LoadedGame

# The bots' level when none is chosen: the club's, as a timed-out turn is played.
DEFAULT_BOT_LEVEL = TIMEOUT_LEVEL
# Tables one user may have opened and still waiting for players (lobby spam).
MAX_WAITING_TABLES = 5


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
    if rules.deals is not None:
        raise Invalid(
            "invalid_rules",
            text(
                "Игры из нескольких раздач (deals) играют в турнирах.",
                "Games of a number of deals (deals) are played in tournaments.",
            ),
        )
    if length == Game.Length.DEAL:
        return Rules.from_options({**rules.to_options(), "target": None})
    if rules.target is None:
        raise Invalid(
            "invalid_rules",
            text(
                "Для партии до победы нужна цель (target), например 5000 или 2500.",
                "A match needs a target score, e.g. 5,000 or 2,500.",
            ),
        )
    return rules


@transaction.atomic(durable=True)
def open_table(
    *,
    user: User,
    mode: str,
    length: str,
    rules: dict[str, Any],
    private: bool,
    seat: int = 0,
    invite: Sequence[int] = (),
    rated: bool = True,
    rating_range: Sequence[int] | None = None,
) -> Game:
    """Opens a table with its creator seated at `seat`, keeping seats for the players in
    `invite` (games.services.invitations); at most MAX_WAITING_TABLES waiting ones. A rated
    table (the default) may ask for players rated within `rating_range` [min, max] in its pool
    (games.services.rating)."""
    game = open_table_locked(
        user=user,
        mode=mode,
        length=length,
        rules=rules,
        private=private,
        seat=seat,
        rated=rated,
        rating_range=rating_range,
    )
    if invite:
        invitations.invite_locked(
            locked=lock_game(game_id=game.pk), inviter=user, invitee_ids=invite
        )
    return game


def open_table_locked(
    *,
    user: User,
    mode: str,
    length: str,
    rules: dict[str, Any],
    private: bool,
    seat: int,
    rated: bool = True,
    rating_range: Sequence[int] | None = None,
) -> Game:
    """Inside the caller's transaction: a new table (its settings, Game.TABLE_SETTINGS, as
    given) with `user` seated at `seat`; their row locked, so that the cap on their waiting
    tables holds."""
    refuse_suspended(user)
    engine_rules = validated_rules(length=length, options=rules)
    _check_seat(engine_rules, seat)
    pool = rating.pool_of(mode=mode, rules=engine_rules)
    bounds = rating.checked_range(rated=rated, rating_range=rating_range, pool=pool, creator=user)
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
        rated=rated,
        pool=pool,
        rating_min=bounds[0] if bounds else None,
        rating_max=bounds[1] if bounds else None,
        invite_code=secrets.token_urlsafe(9) if private else "",
        created_by=user,
        scores=[0 for _team in engine_rules.seating.teams],
    )
    Seat.at_table(game=game, user=user, seat=seat, last_seen_at=clock.now_expression()).save()
    return game


@transaction.atomic(durable=True)
def play_with_bots(
    *,
    user: User,
    mode: str = Game.Mode.LIVE,
    length: str = Game.Length.MATCH,
    rules: dict[str, Any] | None = None,
    level: str = DEFAULT_BOT_LEVEL,
    seat: int = 0,
) -> Game:
    """A table for the user and bots of `level` at every other seat, started at once (the
    lobby's «Играть с ботами»: a live match of the club's Canasta with club-level bots). It
    never waits for players, so it is not one of the user's MAX_WAITING_TABLES."""
    refuse_suspended(user)
    engine_rules = validated_rules(length=length, options=rules or {})
    _check_seat(engine_rules, seat)
    _check_bot_level(level)
    game = Game.objects.create(
        mode=mode,
        length=length,
        rules=engine_rules.to_options(),
        # Bots from the start: a casual game (games.services.rating).
        rated=False,
        pool=rating.pool_of(mode=mode, rules=engine_rules),
        created_by=user,
        scores=[0 for _team in engine_rules.seating.teams],
    )
    seated = [Seat.at_table(game=game, user=user, seat=seat, last_seen_at=clock.now_expression())]
    for other in engine_rules.seating.seats:
        if other != seat:
            bot = bots.free_bot(level=level, besides={taken.user_id for taken in seated})
            seated.append(Seat.at_table(game=game, user=bot, seat=other))
    Seat.objects.bulk_create(seated)
    locked = lock_game(game_id=game.pk)
    start_game(locked)
    return locked.game


@transaction.atomic(durable=True)
def join_table(*, game_id: int, user: User, seat: int, invite_code: str = "") -> LoadedGame:
    """Takes a free seat; the player taking the table's last free seat starts the game."""
    return join_locked(
        locked=lock_game_or_404(game_id), user=user, seat=seat, invite_code=invite_code
    )


def join_locked(*, locked: LoadedGame, user: User, seat: int, invite_code: str = "") -> LoadedGame:
    """`join_table` inside the caller's transaction, on a game it locked."""
    refuse_suspended(user)
    game = locked.game
    # A private table without its code (or once it has started) is one the user may not know
    # of: the same 404 as detail, moves and export, never a 409 or 403 that tells it exists.
    if not selectors.may_see(table=locked, viewer=user, invite_code=invite_code):
        raise errors.game_not_found()
    if game.status != Game.Status.WAITING:
        raise Conflict(
            "game_not_waiting", text("Эта игра уже началась.", "This game has already started.")
        )
    pending = invitations.pending_locked(locked)
    invited = any(invitation.invitee_id == user.pk for invitation in pending)
    # Only its creator may see a private table without the code or an invitation: they still
    # need it to sit.
    if (
        game.private
        and not invited
        and not selectors.invite_code_matches(game=game, invite_code=invite_code)
    ):
        raise Forbidden("bad_invite_code", text("Неверный код приглашения.", "Wrong invite code."))
    if locked.seat_of(user) is not None:
        raise Conflict(
            "already_seated",
            text("Вы уже сидите за этим столом.", "You already have a seat at this table."),
        )
    _check_free_seat(locked, seat)
    rating.refuse_out_of_range(game=game, user=user, now=locked.now)
    invitations.admit_locked(locked=locked, pending=pending, user=user, seat=seat)
    return seat_and_start(locked, user=user, seat=seat)


def _check_free_seat(locked: LoadedGame, seat: int) -> None:
    _check_seat(Rules.from_options(locked.game.rules), seat)
    if any(taken.seat == seat for taken in locked.seats):
        raise Conflict("seat_taken", text("Это место уже занято.", "This seat is taken."))


def seat_and_start(locked: LoadedGame, *, user: User, seat: int) -> LoadedGame:
    """Inside the caller's transaction: `user` sits at `seat` of the waiting table it locked;
    the last seat taken starts the game."""
    Seat.at_table(game=locked.game, user=user, seat=seat, last_seen_at=locked.now).save()
    # Read again: the game now has a new seat.
    locked = lock_game(game_id=locked.game.pk)
    if len(locked.seats) == selectors.seating_of(game=locked.game).players:
        start_game(locked)
    live.announce_after_commit(game_id=locked.game.pk, version=locked.game.version)
    return locked


@transaction.atomic(durable=True)
def seat_bot(*, game_id: int, user: User, seat: int, level: str) -> LoadedGame:
    """Gives an empty seat to a bot of `level`: before the start (the table's creator; the last
    seat taken starts the game), or in a game waiting on a seat its player abandoned (the
    creator while still at the table, else any person there: `selectors.may_seat_bots`), where
    the bot takes over that seat's hand and turn. Each bot at a table is its own player (a User
    marked as a bot)."""
    locked = lock_game_or_404(game_id)
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
    _check_bot_level(level)
    if game.status == Game.Status.WAITING:
        invitations.refuse_kept_seat(pending=invitations.pending_locked(locked), seat=seat)
    seated = {taken.user_id for taken in locked.seats}
    bot = bots.free_bot(level=level, besides=seated)
    if game.status == Game.Status.WAITING:
        if game.rated:
            unrate(game)
            game.save(update_fields=["rated", "rating_min", "rating_max"])
        return seat_and_start(locked, user=bot, seat=seat)
    return give_seat_to_bot_locked(locked, seat=seat, bot=bot)


def _check_bot_level(level: str) -> None:
    if level not in BOT_LEVELS:
        raise Invalid(
            "invalid_bot_level",
            text(
                "Уровень бота: beginner (новичок), club (клуб) или expert (мастер).",
                "A bot's level is beginner, club or expert.",
            ),
        )


@transaction.atomic(durable=True)
def change_bot_level(*, game_id: int, user: User, level: str) -> LoadedGame:
    """Every bot at the user's table now plays at `level`: each bot seat goes to a bot of that
    level, which takes over its hand, its knowledge of the deal and its turn (bots decide from
    the seat's view and the deal's log). Only for a person alone with bots, whom it concerns
    alone; before the start, the table's creator."""
    _check_bot_level(level)
    locked, seat = lock_seated(game_id, user)
    game = locked.game
    if game.is_over:
        raise errors.game_not_active()
    people = [taken for taken in locked.seats if not taken.user.is_bot]
    if people != [seat] or (game.status == Game.Status.WAITING and game.created_by_id != user.pk):
        raise Forbidden(
            "not_alone_with_bots",
            text(
                "Уровень ботов меняет только тот, кто играет с ними один.",
                "Only a player alone at a table with bots may change their level.",
            ),
        )
    seated = {taken.user_id for taken in locked.seats}
    for taken in locked.seats:
        if taken.user.is_bot and taken.user.bot_level != level:
            bot = bots.free_bot(level=level, besides=seated)
            seated.add(bot.pk)
            Seat.objects.filter(pk=taken.pk).update(user=bot)
    live.announce_after_commit(game_id=game.pk, version=game.version)
    return lock_game(game_id=game.pk)


@transaction.atomic(durable=True)
def hand_seat_to_bot(*, game_id: int, user: User) -> LoadedGame:
    """The player leaves a game under way to a club-level bot, which takes over their hand, its
    knowledge of the deal and their turn at once. It counts as leaving the game (played and
    abandoned, never won: `Abandonment`), as when a seat is abandoned; a player alone with bots
    has nobody to hand the game on to (leaving would end it abandoned)."""
    locked, seat = lock_seated(game_id, user, under_way=True)
    game = locked.game
    if not any(not other.user.is_bot and other.pk != seat.pk for other in locked.seats):
        raise Conflict(
            "alone_with_bots",
            text(
                "Вы единственный человек за столом: отдать место некому.",
                "You are the only person at the table: there is nobody to play on for.",
            ),
        )
    record_abandonment(locked=locked, seat=seat)
    bot = bots.free_bot(level=DEFAULT_BOT_LEVEL, besides={taken.user_id for taken in locked.seats})
    Seat.objects.filter(pk=seat.pk).update(
        user=bot,
        is_absent=False,
        consecutive_timeouts=0,
        autoplayed=[],
        timed_out_live=False,
        left_table_at=None,
    )
    locked = lock_game(game_id=game.pk)
    if locked.game.turn_seat == seat.seat:
        # The bot's turn now: it moves after its pause.
        start_clock(locked, locked.now)
        store.write(game=locked.game, moves=[])
    live.announce_after_commit(game_id=game.pk, version=locked.game.version)
    return locked


@transaction.atomic(durable=True)
def leave_table(*, game_id: int, user: User) -> LoadedGame | None:
    """Frees the caller's seat before the start; an emptied table is removed (None)."""
    locked = lock_game_or_404(game_id)
    game = locked.game
    seat = locked.seat_of(user)
    if seat is None:
        raise not_seated(locked, user)
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
