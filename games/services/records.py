"""The players' games counters (accounts.User.games_played, games_won, games_abandoned), kept
where a game ends and where a player leaves one to a bot, in the caller's transaction, as
Lichess keeps a user's game counts on the user: the player card reads them, never the games."""

from collections.abc import Iterable

from django.db.models import F

from accounts.models import User
from games.models import Game, Seat


def count_game_over(*, game: Game, seats: Iterable[Seat]) -> None:
    """The game is over (its status, winner and abandoning seat set): each seat kept to the end
    played it, won it with the winning team, or abandoned it. One update a player, in the
    players' order, so that two games with players in common ending at once lock them alike."""
    for seat in sorted(seats, key=lambda seat: seat.user_id):
        User.objects.filter(pk=seat.user_id).update(
            games_played=F("games_played") + 1,
            games_won=F("games_won") + int(game.winner_team == seat.team),
            games_abandoned=F("games_abandoned") + int(game.abandoned_by_seat == seat.seat),
        )


def count_abandonment(*, user_id: int) -> None:
    """The player left a game under way to a bot (`Abandonment`): played and abandoned."""
    User.objects.filter(pk=user_id).update(
        games_played=F("games_played") + 1, games_abandoned=F("games_abandoned") + 1
    )
