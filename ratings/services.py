"""Rating writes: a rated game's ratings moved (in the transaction that ends it), a pool's
finished games rated in order (the backfill), and the leaderboards' places refreshed.

Every write of a pool's ratings holds its `Pool` row's lock (`_lock_pool`), so a pool's ratings
move one game at a time, in the order the games end (their transactions commit). A game's
ratings move once: `RatingChange` is unique per game and player, and a game already rated is
left alone. The leaderboard's refresh writes only its own rows (`Leaderboard`, `Place`), from
what the ratings are as it reads them: games end while it runs, and neither waits.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Count, F, Max, Min, Q

from club import clock
from ratings import skill
from ratings.models import Leaderboard, Place, Pool, Rating, RatingChange

# Rows per INSERT of the backfill (a statement takes at most 65,535 parameters).
_BATCH = 5_000
_RATING_FIELDS = ["mu", "sigma", "games", "last_played_at", "steady_until"]


@dataclass(frozen=True)
class GameResult:
    """A rated game as the ratings take it: its sides' players (user ids; a side of one where
    each plays alone) and their places (0 the best, equal places a tie), and when it ended."""

    game_id: int
    pool: str
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    ended_at: datetime


def rate_game(*, result: GameResult) -> int:
    """Moves the ratings of a game's players, inside the caller's transaction (the one where the
    game ends); how many moved, none when the game was rated before."""
    _lock_pool(result.pool)
    if RatingChange.objects.filter(game_id=result.game_id).exists():
        return 0
    players = [user_id for side in result.sides for user_id in side]
    ratings = {
        rating.user_id: rating
        for rating in Rating.objects.filter(pool_id=result.pool, user_id__in=players)
    }
    changes = _rated(result, ratings)
    _save_ratings([ratings[user_id] for user_id in players])
    _write_changes(changes)
    return len(changes)


@dataclass(frozen=True)
class Backfill:
    games: int  # rated now
    rebuilt: bool  # the pool was rated again from its first game


@transaction.atomic(durable=True)
def rate_in_order(*, pool: str, results: Sequence[GameResult]) -> Backfill:
    """Rates the pool's games not rated yet, `results` being every rated game of the pool over,
    in the order they ended. When some ended before a game already rated (a game ended while
    the backfill had not run), the pool is rated again from its first game, so that its
    ratings stay those of its games in order."""
    _lock_pool(pool)
    changes = RatingChange.objects.filter(pool=pool)
    done = set(changes.values_list("game_id", flat=True).distinct())
    todo = [result for result in results if result.game_id not in done]
    if not todo:
        return Backfill(games=0, rebuilt=False)
    last_rated = changes.aggregate(last=Max("at"))["last"]
    rebuilt = last_rated is not None and todo[0].ended_at < last_rated
    ratings: dict[int, Rating] = {}
    if rebuilt:
        changes.delete()
        Rating.objects.filter(pool_id=pool).delete()
        todo = list(results)
    else:
        ratings = {rating.user_id: rating for rating in Rating.objects.filter(pool_id=pool)}
    made: list[ChangeRow] = []
    for result in todo:
        made.extend(_rated(result, ratings))
    for start in range(0, len(ratings), _BATCH):
        _save_ratings(list(ratings.values())[start : start + _BATCH])
    _write_changes(made)
    return Backfill(games=len(todo), rebuilt=rebuilt)


def _lock_pool(name: str) -> None:
    """The pool's row, locked (made on the pool's first game), its version moved on so that the
    next refresh places its players again."""
    moved_on = Pool.objects.filter(name=name)
    if not moved_on.update(version=F("version") + 1):
        Pool.objects.bulk_create([Pool(name=name)], ignore_conflicts=True)
        Leaderboard.objects.bulk_create([Leaderboard(pool_id=name)], ignore_conflicts=True)
        moved_on.update(version=F("version") + 1)


# A RatingChange as a row of its columns (_CHANGE_FIELDS): a backfill writes 400,000 of them.
ChangeRow = tuple[int, int, str, float, float, float, float, datetime]
_CHANGE_FIELDS = ("game_id", "user_id", "pool", "mu_before", "sigma_before", "mu", "sigma", "at")


def _rated(result: GameResult, ratings: dict[int, Rating]) -> list[ChangeRow]:
    """The game's changes; `ratings` (by user id; a newcomer's added) moved in memory."""
    at = result.ended_at
    for side in result.sides:
        for user_id in side:
            if user_id not in ratings:
                ratings[user_id] = Rating(
                    user_id=user_id,
                    pool_id=result.pool,
                    mu=skill.NEWCOMER.mu,
                    sigma=skill.NEWCOMER.sigma,
                    last_played_at=at,
                )
    before = [
        [
            skill.grown(ratings[user_id].skill, since=ratings[user_id].last_played_at, now=at)
            for user_id in side
        ]
        for side in result.sides
    ]
    after = skill.rate(before, result.places)
    changes = []
    for side, side_before, side_after in zip(result.sides, before, after, strict=True):
        for user_id, old, new in zip(side, side_before, side_after, strict=True):
            rating = ratings[user_id]
            rating.mu, rating.sigma = new.mu, new.sigma
            rating.games += 1
            rating.last_played_at = at
            rating.steady_until = skill.steady_until(new, since=at)
            changes.append(
                (result.game_id, user_id, result.pool, old.mu, old.sigma, new.mu, new.sigma, at)
            )
    return changes


def _write_changes(rows: list[ChangeRow]) -> None:
    """The changes inserted: on PostgreSQL by COPY, the database's own bulk load (the ORM's
    bulk insert spends some 60 µs of CPU a row preparing it: 24 s of the 400,000 rows of a
    100,000 games' backfill, which must take less than a minute); elsewhere through the ORM."""
    if connection.vendor != "postgresql":
        RatingChange.objects.bulk_create(
            [RatingChange(**dict(zip(_CHANGE_FIELDS, row, strict=True))) for row in rows],
            batch_size=_BATCH,
        )
        return
    column_of = {field.attname: field.column for field in RatingChange._meta.concrete_fields}
    columns = ", ".join(column_of[name] for name in _CHANGE_FIELDS)
    with (
        connection.cursor() as cursor,
        cursor.copy(f"COPY {RatingChange._meta.db_table} ({columns}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)


def _save_ratings(ratings: list[Rating]) -> None:
    """New and existing ratings in one statement (an insert that updates on conflict)."""
    Rating.objects.bulk_create(
        [
            Rating(user_id=rating.user_id, pool_id=rating.pool_id, **_fields(rating))
            for rating in ratings
        ],
        update_conflicts=True,
        unique_fields=["user", "pool"],
        update_fields=_RATING_FIELDS,
    )


def _fields(rating: Rating) -> dict[str, object]:
    return {name: getattr(rating, name) for name in _RATING_FIELDS}


# The leaderboard's places: the players not provisional at `now`, by rating (equal ones by user
# id), numbered from 1, in one statement; only the places that changed are written (an upsert:
# an UPDATE of the moved and an INSERT of the missing ones took as long, and the INSERT's check
# of the places missing went quadratic while the table filled, the planner taking it for empty).
# Written out: the ORM cannot insert rows from a window function's numbering.
_PLACE_SQL = f"""
INSERT INTO {Place._meta.db_table} (rating_id, pool, rank)
SELECT id, pool_id, row_number() OVER (ORDER BY mu DESC, user_id)
FROM {Rating._meta.db_table} WHERE pool_id = %s AND steady_until > %s
ON CONFLICT (rating_id) DO UPDATE SET rank = excluded.rank
WHERE {Place._meta.db_table}.rank <> excluded.rank
"""


def refresh_leaderboards() -> list[str]:
    """Places again the players of every pool where a game was rated since its leaderboard's
    last refresh, or where a player placed has turned provisional since (a long pause); the
    pools refreshed (a pool another refresh is placing right now is left to it)."""
    now = clock.now()
    due = Leaderboard.objects.filter(
        Q(pool__version__gt=F("placed_version")) | Q(next_dropout_at__lte=now)
    ).values_list("pool_id", flat=True)
    return [name for name in due if refresh_leaderboard(pool=name) is not None]


@transaction.atomic(durable=True)
def refresh_leaderboard(*, pool: str) -> int | None:
    """The pool's leaderboard places as its ratings now stand; how many players are on it (None:
    another refresh of the pool is running, and will)."""
    board = (
        Leaderboard.objects.select_for_update(of=("self",), skip_locked=True)
        .filter(pool_id=pool)
        .first()
    )
    if board is None:
        return None
    # The version first: the places below see at least the games it counts.
    version = Pool.objects.values_list("version", flat=True).get(name=pool)
    now = clock.now()
    Place.objects.filter(pool=pool).exclude(rating__steady_until__gt=now).delete()
    with connection.cursor() as cursor:
        cursor.execute(_PLACE_SQL, [pool, now])
    placed = Place.objects.filter(pool=pool).aggregate(
        count=Count("pk"), first_dropout=Min("rating__steady_until")
    )
    board.placed_version = version
    board.ranked = placed["count"]
    board.refreshed_at = now
    board.next_dropout_at = placed["first_dropout"]
    board.save()
    return board.ranked
