"""An agreed pause of a correspondence game (issue 21).

Any person seated at an active correspondence game asks the table for a pause of up to
`CORRESPONDENCE_PAUSE_DAYS` days (asking counts as accepting). When every person at the table
has accepted (bots are never asked), every clock of the game stops: the running turn's deadline
is moved by the pause (`games.away`), and a turn starting during it starts its clock when it
ends. A request nobody answers lapses after `CORRESPONDENCE_PAUSE_ASK_HOURS`.

The pause ends by itself at `paused_until`, or earlier once every person asked to resume
(`resume_pause`: one player cannot end what all agreed to, just as one could not start it).
Moves may still be made during a pause; only the clocks stop.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from accounts.models import User
from club.errors import Conflict, Invalid
from club.i18n import text
from games import errors, live, selectors
from games.away import retimed
from games.models import Game
from games.selectors.time_off import is_asked, is_paused, turn_away
from games.services import lock_game
from games.store import LoadedGame
from notifications.models import Kind
from notifications.services import notify

_PAUSE_FIELDS = [
    "pause_asked_by",
    "pause_asked_at",
    "pause_days",
    "pause_votes",
    "paused_from",
    "paused_until",
    "turn_deadline",
]


def _people(locked: LoadedGame) -> set[int]:
    return {seat.seat for seat in locked.seats if not seat.user.is_bot}


def _seated_at_correspondence_game(game_id: int, user: User) -> tuple[LoadedGame, int]:
    """The game locked, and the caller's seat at it: a person's, at an active correspondence
    game (a private table the caller may not see stays unknown: 404)."""
    try:
        locked = lock_game(game_id=game_id)
    except Game.DoesNotExist:
        raise errors.game_not_found() from None
    seat = locked.seat_of(user)
    if seat is None:
        if not selectors.may_see(table=locked, viewer=user):
            raise errors.game_not_found()
        raise errors.not_seated()
    game = locked.game
    if game.status != Game.Status.ACTIVE:
        raise errors.game_not_active()
    if game.mode != Game.Mode.ASYNC:
        raise Conflict(
            "not_correspondence",
            text(
                "Паузу можно взять только в партии по дням.",
                "Only a correspondence game can be paused.",
            ),
        )
    return locked, seat.seat


@transaction.atomic(durable=True)
def ask_pause(*, game_id: int, user: User, days: int) -> LoadedGame:
    """Ask the table for a pause of `days` days; with nobody else to ask, it starts now."""
    if not 1 <= days <= settings.CORRESPONDENCE_PAUSE_DAYS:
        message = text(
            f"Пауза — от 1 до {settings.CORRESPONDENCE_PAUSE_DAYS} дней.",
            f"A pause lasts 1 to {settings.CORRESPONDENCE_PAUSE_DAYS} days.",
        )
        raise Invalid("invalid", message, errors={"days": [message]})
    locked, seat = _seated_at_correspondence_game(game_id, user)
    game, now = locked.game, locked.now
    if is_paused(game, now):
        raise _already_paused()
    if is_asked(game, now):
        raise Conflict(
            "pause_already_asked",
            text(
                "Пауза уже предложена: примите её или дождитесь ответа.",
                "A pause is already asked: accept it or wait for the answers.",
            ),
        )
    game.pause_asked_by, game.pause_asked_at, game.pause_days = seat, now, days
    game.pause_votes = [seat]
    for other in locked.seats:
        if other.seat != seat and not other.user.is_bot:
            notify(
                user_id=other.user_id,
                kind=Kind.PAUSE_ASKED,
                game_id=game.pk,
                payload={"seat": seat, "days": days},
                dedupe_key=f"{game.pk}:{now.isoformat()}",
            )
    return _save(locked)


@transaction.atomic(durable=True)
def accept_pause(*, game_id: int, user: User) -> LoadedGame:
    """Say yes to the pause asked; the last person's yes starts it."""
    locked, seat = _seated_at_correspondence_game(game_id, user)
    game, now = locked.game, locked.now
    if is_paused(game, now):
        raise _already_paused()
    if not is_asked(game, now):
        raise Conflict(
            "no_pause_asked",
            text(
                "Паузу никто не предлагал (или предложение истекло).",
                "No pause is asked (or the request has lapsed).",
            ),
        )
    game.pause_votes = sorted({*game.pause_votes, seat})
    return _save(locked)


@transaction.atomic(durable=True)
def resume_pause(*, game_id: int, user: User) -> LoadedGame:
    """Ask to end the running pause early; once every person asked, the clocks run again."""
    locked, seat = _seated_at_correspondence_game(game_id, user)
    game, now = locked.game, locked.now
    if not is_paused(game, now):
        raise Conflict("not_paused", text("Игра не на паузе.", "The game is not paused."))
    game.pause_votes = sorted({*game.pause_votes, seat})
    return _save(locked)


def _save(locked: LoadedGame) -> LoadedGame:
    """Start or end the pause when every person has voted for it; write the game."""
    game, now = locked.game, locked.now
    everyone = _people(locked) <= set(game.pause_votes)
    if everyone and is_asked(game, now):
        assert game.pause_days is not None
        _move_clock(locked, pause=(now, now + timedelta(days=game.pause_days)))
        game.pause_asked_by = game.pause_asked_at = game.pause_days = None
        game.pause_votes = []
    elif everyone and is_paused(game, now):
        assert game.paused_from is not None
        _move_clock(locked, pause=(game.paused_from, now))
        game.pause_votes = []
    game.save(update_fields=_PAUSE_FIELDS)
    live.announce_after_commit(game_id=game.pk, version=game.version)
    return locked


def _move_clock(locked: LoadedGame, *, pause: tuple[datetime, datetime]) -> None:
    """The game's pause becomes `pause`: the running turn's deadline moves with it."""
    game = locked.game
    player = next((seat.user for seat in locked.seats if seat.seat == game.turn_seat), None)
    old = turn_away(game, player)
    game.paused_from, game.paused_until = pause
    if game.turn_deadline is not None:
        game.turn_deadline = retimed(
            game.turn_deadline, at=locked.now, old=old, new=turn_away(game, player)
        )


def _already_paused() -> Conflict:
    return Conflict("already_paused", text("Игра уже на паузе.", "The game is already paused."))
