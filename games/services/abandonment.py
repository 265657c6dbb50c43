"""A player leaving a game under way: their seat emptied for a bot, or the game ended abandoned.

Both run inside the caller's transaction, on a game it locked (the deadline sweep,
games.timeouts): they are not entry points and open no transaction of their own.
"""

from django.conf import settings

from games import live, selectors, store, time_off
from games.away import deadline_after
from games.models import Abandonment, Game, Seat
from games.services.records import count_abandonment
from games.services.turns import finish
from games.store import LoadedGame


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
    record_abandonment(locked=locked, seat=seat)
    seat.delete()
    game.turn_started_at = locked.now
    game.turn_deadline = deadline_after(
        locked.now, settings.TURN_LIMIT[game.mode], time_off.turn_away(game, None)
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
