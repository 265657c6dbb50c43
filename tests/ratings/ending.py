"""Ending games in the ratings' tests: through the game's own end (games.services.turns.finish,
which a last deal and the deadline sweep call), with the scores a test wants."""

from django.db import transaction
from django.db.models import F

from accounts.models import User
from games import services, store
from games.models import Game
from games.services.turns import finish
from ratings.models import Rating, RatingChange
from tests.factories import UserFactory, started_game


def table_of(players: int, teams: int | None = None, **options: object) -> dict[str, object]:
    rules: dict[str, object] = {"players": players, **options}
    if teams is not None:
        rules["teams"] = teams
    return rules


def game_of(
    people: list[User] | None = None, *, players: int = 4, teams: int | None = None, **kwargs
) -> Game:
    """A started game of people at a table of `players` (people[i] at seat i)."""
    people = people or UserFactory.create_batch(players)
    return started_game(players=people, rules=table_of(len(people), teams), **kwargs)


def end_game(game: Game, *, scores: list[int]) -> Game:
    """The game over with these team scores: the highest wins (none on a tie for it)."""
    with transaction.atomic():
        locked = services.lock_game(game_id=game.pk)
        best = max(scores)
        leaders = [team for team, score in enumerate(scores) if score == best]
        locked.game.status = Game.Status.FINISHED
        locked.game.scores = scores
        finish(
            locked, winner_team=leaders[0] if len(leaders) == 1 else None, finished_at=locked.now
        )
        store.write(game=locked.game, moves=[])
    return Game.objects.get(pk=game.pk)


def change_of(game: Game, user: User) -> int:
    return RatingChange.objects.get(game=game, user=user).change


def rating_of(user: User, pool: str = "async.classic.4") -> Rating:
    return Rating.objects.get(user=user, pool_id=pool)


def set_rating(user: User, *, rating: int, deviation: int, pool: str = "async.classic.4") -> None:
    """The player as if rated `rating` ± `deviation` in `pool` by earlier games, last one now."""
    from club import clock
    from ratings import skill
    from ratings.models import Leaderboard, Pool

    Pool.objects.get_or_create(name=pool)
    Leaderboard.objects.get_or_create(pool_id=pool)
    # As a game rated there would: the leaderboard's refresh is due.
    Pool.objects.filter(name=pool).update(version=F("version") + 1)
    belief = skill.Skill(
        mu=skill.MODEL.mu + (rating - skill.NEWCOMER_RATING) / skill.SCALE,
        sigma=deviation / skill.SCALE,
    )
    now = clock.now()
    Rating.objects.update_or_create(
        user=user,
        pool_id=pool,
        defaults={
            "mu": belief.mu,
            "sigma": belief.sigma,
            "games": 40,
            "last_played_at": now,
            "steady_until": skill.steady_until(belief, since=now),
        },
    )
