"""The rematch (issue 37): «Сыграть ещё» on a game that is over opens one new table with the
same people, mode and rules (the table's settings, Game.TABLE_SETTINGS) and invites the others.

DECIDED: everyone keeps their seat, so partners stay partners. A rematch is the same match
again; rotating the seats at four and six would first need every player's yes, and a table that
wants new partners opens a new table. The player who presses first sits at their old seat and
opens the table; the bots of the old table take their old seats at once; every other person is
invited to their old seat (an `invitation` notification naming the rematch), but one whose
account is closed or who keeps apart from the opener (a block either way), whose seat stays
open. A rematch with bots alone starts at once.

One rematch per game however many press at once: the old game's row is locked first, so a
second press waits for the first to commit and finds its table (`Rematch.of_game` is unique
besides). A later press by another player of the old game answers that same table and, when a
seat is kept for them there or their old seat is still free, seats them (pressing «Сыграть
ещё» is their yes).
"""

from dataclasses import dataclass

from django.db import transaction

from accounts.models import User
from club.errors import Conflict
from club.i18n import text
from games import selectors
from games.models import Game, Invitation, Rematch
from games.services import invitations, rating
from games.services.locking import lock_game, lock_game_or_404, not_seated
from games.services.tables import join_locked, open_table_locked, seat_and_start
from games.store import LoadedGame
from social import selectors as social_selectors


@dataclass(frozen=True)
class RematchResult:
    table: LoadedGame  # the new table
    created: bool  # this call opened it (else it answers the one opened before)


@transaction.atomic(durable=True)
def rematch(*, game_id: int, user: User) -> RematchResult:
    """The rematch of a game over, opened by the first of its players to ask; later askers get
    the same table (and their seat at it)."""
    old = lock_game_or_404(game_id)
    seat = old.seat_of(user)
    if seat is None:
        raise not_seated(old, user)
    if not old.game.is_over:
        raise Conflict(
            "game_not_over",
            text(
                "Партия ещё идёт: сыграть ещё можно после её конца.",
                "The game is still on: a rematch waits for its end.",
            ),
        )
    if old.game.tournament:
        raise Conflict(
            "tournament_game",
            text(
                "Это игра турнира: следующую игру подберёт турнир.",
                "This is a tournament's game: the tournament pairs your next one.",
            ),
        )
    opened = Rematch.objects.filter(of_game=old.game).values_list("game_id", flat=True).first()
    if opened is not None:
        return RematchResult(table=_take_part(lock_game(game_id=opened), old, user), created=False)
    table = _open_rematch(old, user, seat.seat)
    return RematchResult(table=table, created=True)


def _open_rematch(old: LoadedGame, user: User, seat: int) -> LoadedGame:
    settings = {name: getattr(old.game, name) for name in Game.TABLE_SETTINGS}
    if any(taken.user.is_bot for taken in old.seats):
        # Its bots come back from the start: a casual table (games.services.rating).
        settings.update(rated=False, rating_range=None)
    elif not rating.holds(game=old.game, user=user, now=old.now):
        # The asker's rating has left the range since: the rematch asks for none.
        settings["rating_range"] = None
    game = open_table_locked(user=user, seat=seat, **settings)
    Rematch.objects.create(of_game=old.game, game=game, created_by=user)
    others = [taken for taken in old.seats if taken.user_id != user.pk]
    apart = social_selectors.blocked_either_way(user_id=user.pk)
    active = set(
        User.objects.filter(pk__in=[taken.user_id for taken in others], is_active=True).values_list(
            "pk", flat=True
        )
    )
    people = [
        taken
        for taken in others
        if not taken.user.is_bot and taken.user_id in active and taken.user_id not in apart
    ]
    locked = lock_game(game_id=game.pk)
    invitations.invite_locked(
        locked=locked,
        inviter=user,
        invitee_ids=[taken.user_id for taken in people],
        seats=[taken.seat for taken in people],
        rematch_of=old.game.pk,
    )
    for bot in (taken for taken in others if taken.user.is_bot):
        locked = seat_and_start(locked, user=bot.user, seat=bot.seat)
    return lock_game(game_id=game.pk)


def _take_part(new: LoadedGame, old: LoadedGame, user: User) -> LoadedGame:
    """A later press by a player of the old game: seated at the rematch when a seat is kept for
    them, or their old seat is free while it waits; else it is only shown to them."""
    if new.game.status != Game.Status.WAITING or new.seat_of(user) is not None:
        return new
    kept = (
        Invitation.objects.filter(game=new.game, invitee=user, status=Invitation.Status.PENDING)
        .values_list("seat", flat=True)
        .first()
    )
    old_seat = old.seat_of(user)
    assert old_seat is not None
    seat = kept if kept is not None else old_seat.seat
    if seat not in selectors.empty_seats(table=new):
        return new
    # A player of the old table needs no code to sit at its rematch.
    return join_locked(locked=new, user=user, seat=seat, invite_code=new.game.invite_code)
