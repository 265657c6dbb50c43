"""Who is at the table (RULES.md R-CLUB-2): seen, absent, reclaimed.

A seated player's every request, and the heartbeat, mark the seat seen (`Seat.last_seen_at`, the
database's clock); a live seat unseen for the absence grace (60 s) is absent, its turns played at
once by the deadline sweep (games.services.timeouts) while someone else is still at the table.
A player at the table gets no your-turn notification, no "the club played for you" and no push
(games.selectors.presence reads who is: `players_at_table`, which games/apps.py registers
with notifications.at_table).

When a live player's last open table page closes, the seat is marked seen at that moment and
`Seat.left_table_at` set: the 60-second wait runs from the closing itself, and the table shows
it counting down (games.selectors.presence.absence_deadline). Bots are never absent.
"""

from datetime import datetime, timedelta

from accounts.models import User
from club import clock
from games import errors, live, selectors, store
from games.models import Game, Seat
from games.selectors.presence import stale

# A read or a move refreshes Seat.last_seen_at at most this often.
SEEN_RESOLUTION = timedelta(seconds=5)


def mark_seen(*, seat: Seat, now: datetime) -> None:
    """Any request of a seated player: seen `now` (the DB clock), no longer absent.

    The row is written only when the player was away or last seen SEEN_RESOLUTION ago; the
    other pages are told when the player was away.
    """
    recently_seen = seat.last_seen_at is not None and now - seat.last_seen_at < SEEN_RESOLUTION
    if recently_seen and not seat.is_absent and seat.left_table_at is None:
        return
    was_away = seat.is_absent or seat.left_table_at is not None
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=now, is_absent=False, left_table_at=None)
    seat.last_seen_at = now
    seat.is_absent = False
    seat.left_table_at = None
    if was_away:
        _announce((seat.game_id, seat.game.version))


def reclaim_seat(*, game_id: int, user: User) -> Seat:
    """The player is here (heartbeat): seen now, no longer absent."""
    seat = Seat.objects.filter(game_id=game_id, user=user).first()
    if seat is None:
        table = store.load(game_id=game_id)
        if table is None or not selectors.may_see(table=table, viewer=user):
            raise errors.game_not_found()
        raise errors.not_seated()
    Seat.objects.filter(pk=seat.pk).update(
        last_seen_at=clock.now_expression(), is_absent=False, left_table_at=None
    )
    was_away = seat.is_absent or seat.left_table_at is not None
    seat.refresh_from_db()
    if was_away:
        _announce((seat.game_id, seat.game.version))
    return seat


def mark_seats_seen(*, seat_ids: set[int]) -> None:
    """Seats whose players hold the table open (the live pages' event streams): seen now, no
    longer absent; one statement for all of a web process's open streams."""
    if seat_ids:
        Seat.objects.filter(pk__in=seat_ids).update(
            last_seen_at=clock.now_expression(), is_absent=False, left_table_at=None
        )


def left_table(*, seat_id: int) -> None:
    """The seat's last open table page closed: the 60-second wait starts now, and the table's
    other pages are told, to show it counting down."""
    now = clock.now_expression()
    Seat.objects.filter(pk=seat_id).update(last_seen_at=now, left_table_at=now)
    _announce(Seat.objects.filter(pk=seat_id).values_list("game_id", "game__version").first())


def _announce(game: tuple[int, int] | None) -> None:
    """The live pages of the game fetch their table again (a seat's presence changed)."""
    if game is not None:
        live.announce_after_commit(game_id=game[0], version=game[1])


def mark_absences() -> None:
    """Live seats: absent once unseen for 60 s, present again after any request.

    The flag is what the table shows; the sweep itself goes by `last_seen_at`."""
    now = clock.now()
    live = Seat.objects.filter(
        game__status=Game.Status.ACTIVE, game__mode=Game.Mode.LIVE, user__bot_level=""
    )
    live.filter(stale(now), is_absent=False).update(is_absent=True)
    live.filter(is_absent=True).exclude(stale(now)).update(is_absent=False)
