"""What every game service starts with: the game row locked, and who may act on it."""

from accounts.models import User
from club import clock
from club.errors import ClubError, Forbidden
from club.i18n import text
from games import errors, selectors, store
from games.models import Game, Seat
from games.store import LoadedGame


def lock_game(*, game_id: int) -> LoadedGame:
    """Inside a transaction: the game row, locked, with its seats and the club's clock."""
    locked = store.load(game_id=game_id, for_update=True)
    if locked is None:
        raise Game.DoesNotExist(f"Game {game_id} does not exist.")
    return locked


def lock_game_or_404(game_id: int) -> LoadedGame:
    try:
        return lock_game(game_id=game_id)
    except Game.DoesNotExist:
        raise errors.game_not_found() from None


def not_seated(table: LoadedGame, user: User) -> ClubError:
    """`not_seated`; `not_found` for a private table the user may not see (it stays unknown)."""
    if not selectors.may_see(table=table, viewer=user):
        return errors.game_not_found()
    return errors.not_seated()


def refuse_suspended(user: User) -> None:
    if user.is_suspended(now=clock.now()):
        raise Forbidden(
            "suspended",
            text(
                "Ваша учётная запись временно отстранена от игр.",
                "Your account is suspended from play.",
            ),
        )


def lock_seated(game_id: int, user: User, *, under_way: bool = False) -> tuple[LoadedGame, Seat]:
    """The game locked, and the user's seat at it (`not_seated`, or not found for a private
    table they may not see); with `under_way`, an active game (else `game_not_active`)."""
    locked = lock_game_or_404(game_id)
    seat = locked.seat_of(user)
    if seat is None:
        raise not_seated(locked, user)
    if under_way and locked.game.status != Game.Status.ACTIVE:
        raise errors.game_not_active()
    return locked, seat
