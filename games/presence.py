"""Who is at the table (RULES.md R-CLUB-2): seen, absent, reclaimed.

A seated player's every request, and the heartbeat, mark the seat seen (`Seat.last_seen_at`, the
database's clock); a live seat unseen for the absence grace (60 s) is absent, its turns played at
once by the deadline sweep (games.timeouts) while someone else is still at the table. A player at
the table gets no your-turn notification (`players_at_table`, which notifications asks through
the NOTIFICATIONS_PLAYERS_AT_TABLE setting).
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q

from accounts.models import User
from canasta_club import clock
from games import errors, selectors, store
from games.models import Game, Seat

# A read or a move refreshes Seat.last_seen_at at most this often.
SEEN_RESOLUTION = timedelta(seconds=5)
# A player seen this recently is looking at an async game: no your-turn notification.
LOOKING_AT_GAME = timedelta(seconds=60)


def stale(now: datetime) -> Q:
    """Seats whose player has not been seen for the live absence grace (60 s)."""
    seen_before = now - settings.ABSENCE_GRACE[Game.Mode.LIVE]
    return Q(last_seen_at__lt=seen_before) | Q(last_seen_at__isnull=True)


def is_stale(seat: Seat, now: datetime) -> bool:
    seen_before = now - settings.ABSENCE_GRACE[Game.Mode.LIVE]
    return seat.last_seen_at is None or seat.last_seen_at < seen_before


def mark_seen(*, seat: Seat, now: datetime) -> None:
    """Any request of a seated player: seen `now` (the DB clock), no longer absent.

    The row is written only when the player was absent or last seen SEEN_RESOLUTION ago.
    """
    recently_seen = seat.last_seen_at is not None and now - seat.last_seen_at < SEEN_RESOLUTION
    if recently_seen and not seat.is_absent:
        return
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=now, is_absent=False)
    seat.last_seen_at = now
    seat.is_absent = False


def reclaim_seat(*, game_id: int, user: User) -> Seat:
    """The player is here (heartbeat): seen now, no longer absent."""
    seat = Seat.objects.filter(game_id=game_id, user=user).first()
    if seat is None:
        table = store.load(game_id=game_id)
        if table is None or not selectors.may_see(table=table, viewer=user):
            raise errors.game_not_found()
        raise errors.not_seated()
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=clock.now_expression(), is_absent=False)
    seat.refresh_from_db()
    return seat


def mark_seats_seen(*, seat_ids: set[int]) -> None:
    """Seats whose players hold the table open (the live pages' event streams): seen now, no
    longer absent; one statement for all of a web process's open streams."""
    if seat_ids:
        Seat.objects.filter(pk__in=seat_ids).update(
            last_seen_at=clock.now_expression(), is_absent=False
        )


def mark_absences() -> None:
    """Live seats: absent once unseen for 60 s, present again after any request.

    The flag is what the table shows; the sweep itself goes by `last_seen_at`."""
    now = clock.now()
    live = Seat.objects.filter(game__status=Game.Status.ACTIVE, game__mode=Game.Mode.LIVE)
    live.filter(stale(now), is_absent=False).update(is_absent=True)
    live.filter(is_absent=True).exclude(stale(now)).update(is_absent=False)


def players_at_table(*, pairs: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Of these (game, user) pairs, those whose player is at the table: live games always,
    async games when seen in the last minute."""
    if not pairs:
        return set()
    recently = clock.now_expression() - LOOKING_AT_GAME
    seats = Seat.objects.filter(
        Q(game__mode=Game.Mode.LIVE) | Q(last_seen_at__gte=recently),
        game_id__in={game_id for game_id, _ in pairs},
        user_id__in={user_id for _, user_id in pairs},
    )
    return set(seats.values_list("game_id", "user_id")) & pairs
