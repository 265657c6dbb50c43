"""Who is at the table, as read (RULES.md R-CLUB-2): stale and absent seats, whether a player
has the table open, when a dropped player becomes absent. The writes (seen, left, absent,
reclaimed) are games.services.presence."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q

from club import clock
from games.models import Game, Seat

# A player seen this recently is looking at an async game: no your-turn notification.
LOOKING_AT_GAME = timedelta(seconds=60)
# An open live table marks its seat seen at least this often (the event stream every 25 s, a
# polling page every 5 s): a live player unseen for longer has dropped, though no page said so.
DROPPED_AFTER = timedelta(seconds=30)


def stale(now: datetime) -> Q:
    """Seats whose player has not been seen for the live absence grace (60 s)."""
    seen_before = now - settings.ABSENCE_GRACE[Game.Mode.LIVE]
    return Q(last_seen_at__lt=seen_before) | Q(last_seen_at__isnull=True)


def is_stale(seat: Seat, now: datetime) -> bool:
    seen_before = now - settings.ABSENCE_GRACE[Game.Mode.LIVE]
    return seat.last_seen_at is None or seat.last_seen_at < seen_before


def has_table_open(seat: Seat, mode: str, now: datetime) -> bool:
    """The player is looking at the game: a live table page open (seen within DROPPED_AFTER,
    not closed since), an async game seen within the last minute."""
    if seat.last_seen_at is None:
        return False
    if mode == Game.Mode.LIVE:
        return seat.left_table_at is None and now - seat.last_seen_at <= DROPPED_AFTER
    return now - seat.last_seen_at <= LOOKING_AT_GAME


def away_since(seat: Seat) -> str:
    """Names the player's absence: when they were last seen (it stays put while they are away,
    and a new absence starts from a later sighting)."""
    return seat.last_seen_at.isoformat() if seat.last_seen_at is not None else "never"


def absence_deadline(seat: Seat, now: datetime) -> datetime | None:
    """When a live player who dropped becomes absent (R-CLUB-2), while the wait runs: after
    their page closed, or once unseen for longer than an open page ever is. None for a player
    at the table, one already absent, and bots."""
    if seat.user.is_bot or seat.is_absent or seat.last_seen_at is None:
        return None
    deadline = seat.last_seen_at + settings.ABSENCE_GRACE[Game.Mode.LIVE]
    dropped = seat.left_table_at is not None or now - seat.last_seen_at > DROPPED_AFTER
    return deadline if dropped and deadline > now else None


def players_at_table(*, pairs: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Of these (game, user) pairs, those whose player has the table open (`has_table_open`):
    a live table page open, an async game seen in the last minute."""
    if not pairs:
        return set()
    now = clock.now_expression()
    seats = Seat.objects.filter(
        Q(
            game__mode=Game.Mode.LIVE,
            left_table_at__isnull=True,
            last_seen_at__gte=now - DROPPED_AFTER,
        )
        | Q(game__mode=Game.Mode.ASYNC, last_seen_at__gte=now - LOOKING_AT_GAME),
        game_id__in={game_id for game_id, _ in pairs},
        user_id__in={user_id for _, user_id in pairs},
    )
    return set(seats.values_list("game_id", "user_id")) & pairs
