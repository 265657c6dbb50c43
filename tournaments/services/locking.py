"""What every tournament service starts with: its row locked."""

from tournaments import errors
from tournaments.models import Tournament


def lock_tournament(tournament_id: int) -> Tournament:
    """Inside a transaction: the tournament's row, locked (404 `not_found` when there is none)."""
    tournament = Tournament.objects.select_for_update(of=("self",)).filter(pk=tournament_id).first()
    if tournament is None:
        raise errors.tournament_not_found()
    return tournament
