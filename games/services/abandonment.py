"""A player leaving a game under way: their seat emptied for a bot, or the game ended abandoned.

They run inside the caller's transaction, on a game it locked (the deadline sweep,
games.services.timeouts): they are not entry points and open no transaction of their own.
"""

from django.conf import settings

from accounts.models import User
from games import live, selectors, store
from games.away import deadline_after
from games.engine import Match
from games.models import Abandonment, Game, Seat
from games.selectors.time_off import turn_away
from games.services import bots
from games.services.locking import lock_game
from games.services.records import count_abandonment
from games.services.turns import finish, start_turn
from games.store import LoadedGame


def abandon_seat(*, locked: LoadedGame, seat: Seat) -> None:
    """The seat's player abandons the game (game locked by the caller). While another person
    still sits at the table, the seat is emptied (`Abandonment` keeps it on the player's record)
    and the game waits one turn limit for a bot to take it (`seat_bot`); the deadline sweep ends
    it abandoned should nobody give it one. With nobody else there it ends abandoned now.

    A game the club arranged for an event (a tournament) never waits and never ends so: the
    club's bot takes the seat at once, whoever else is left, and the event goes on."""
    game = locked.game
    others = [other for other in locked.seats if other.pk != seat.pk and not other.user.is_bot]
    if not others and not game.arranged:
        finish_game_abandoned(locked=locked, seat=seat.seat)
        return
    record_abandonment(locked=locked, seat=seat)
    seat.delete()
    if game.arranged:
        give_seat_to_bot_locked(lock_game(game_id=game.pk), seat=seat.seat)
        return
    game.turn_started_at = locked.now
    game.turn_deadline = deadline_after(
        locked.now, settings.TURN_LIMIT[game.mode], turn_away(game, None)
    )
    store.write(game=game, moves=[])
    live.announce_after_commit(game_id=game.pk, version=game.version)


def record_abandonment(*, locked: LoadedGame, seat: Seat) -> None:
    """The seat's player leaves the game under way to a bot: on their record, played and
    abandoned, never won (their seat goes on without them)."""
    Abandonment.objects.create(
        game=locked.game, user_id=seat.user_id, seat=seat.seat, created_at=locked.now
    )
    count_abandonment(user_id=seat.user_id)


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
    finish(locked, winner_team=leaders[0] if len(leaders) == 1 else None, finished_at=locked.now)
    store.write(game=game, moves=[])
    live.announce_after_commit(game_id=game.pk, version=game.version)


def give_seat_to_bot_locked(
    locked: LoadedGame, *, seat: int, bot: User | None = None
) -> LoadedGame:
    """An empty seat of a game under way (game locked by the caller) goes to `bot` (by default
    one of the club's, of the level that plays timed-out turns): it takes over the seat's hand,
    its knowledge of the deal and, when the game waits on that seat, its turn, played after
    the bot's pause. Returns the game read again, with its new seat."""
    game = locked.game
    if bot is None:
        seated = {taken.user_id for taken in locked.seats}
        bot = bots.free_bot(level=bots.TIMEOUT_LEVEL, besides=seated)
    Seat.at_table(game=game, user=bot, seat=seat, last_seen_at=locked.now).save()
    locked = lock_game(game_id=game.pk)
    assert locked.game.state is not None  # a game under way
    if locked.game.turn_seat == seat:
        start_turn(locked, Match.from_dict(locked.game.state), locked.now)
    store.write(game=locked.game, moves=[])
    live.announce_after_commit(game_id=game.pk, version=locked.game.version)
    return locked
