"""Tournaments made through the services, and games finished without being played."""

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from accounts.models import User
from club import clock
from games import services as game_services
from games.models import DealRecord, Game
from games.signals import game_over
from games.store import load
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Entry, Round, RoundTable, Tournament


def open_tournament(*, creator: User | None = None, **fields: Any) -> Tournament:
    spec = services.TournamentSpec(
        **{"name": "Весенний кубок", "mode": "async", "format": "swiss", "rounds": 3, **fields}
    )
    return services.create_tournament(user=creator or UserFactory.create(), spec=spec)


def enter(tournament: Tournament, count: int) -> list[Entry]:
    """`count` entries: pairs in a tournament of fixed pairs, else single players."""
    entries = []
    for _ in range(count):
        player = UserFactory.create()
        partner = UserFactory.create() if tournament.partners == "fixed" else None
        entries.append(
            services.join_tournament(
                tournament_id=tournament.pk,
                user=player,
                partner_id=None if partner is None else partner.pk,
            )
        )
    return entries


def start(tournament: Tournament) -> Tournament:
    services.start_tournament(tournament_id=tournament.pk, user=tournament.created_by)
    return Tournament.objects.get(pk=tournament.pk)


def round_games(tournament: Tournament, number: int) -> list[Game]:
    return [
        table.game
        for table in RoundTable.objects.filter(
            round__tournament=tournament, round__number=number
        ).select_related("game")
    ]


def finish_game(game: Game, scores: Sequence[int], *, deals: Sequence[Sequence[int]] = ()) -> None:
    """The game over with these totals (and these deals' totals, duplicate's boards), as if
    played, through the service that counts a game's end and the signal it gives."""
    with transaction.atomic():
        locked = load(game_id=game.pk, for_update=True)
        assert locked is not None
        for number, totals in enumerate(deals or [scores], start=1):
            DealRecord.objects.create(
                game=game,
                number=number,
                dealer=0,
                seed=1,
                result=[{"total": total} for total in totals],
                scores_after=list(scores),
            )
        best = max(scores)
        winners = [team for team, score in enumerate(scores) if score == best]
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED,
            scores=list(scores),
            winner_team=winners[0] if len(winners) == 1 else None,
            turn_seat=None,
            turn_deadline=None,
            finished_at=clock.now(),
        )
        over = Game.objects.get(pk=game.pk)
        game_services.count_game_over(game=over, seats=locked.seats)
        game_over.send(sender=Game, game=over)


def current_round(tournament: Tournament) -> Round:
    tournament.refresh_from_db()
    return Round.objects.get(tournament=tournament, number=tournament.current_round)


def turn_of(game: Game) -> int:
    assert game.turn_seat is not None
    return game.turn_seat
