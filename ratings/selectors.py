"""Rating reads: a player's standing in each pool, the standings of the players on a page, a
game's rating changes, a pool's leaderboard and a player's history.

Deviations are shown as they stand at `now` (the club's clock): grown since the player's last
game in the pool (ratings.skill).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import F, FloatField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Round

from ratings import skill
from ratings.models import Leaderboard, Place, Rating, RatingChange


@dataclass(frozen=True)
class Standing:
    """A player's rating in a pool as shown at a moment."""

    pool: str
    rating: int
    deviation: int
    games: int
    provisional: bool
    # Their place on the pool's leaderboard (its last refresh); None: not on it.
    rank: int | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "rating": self.rating,
            "deviation": self.deviation,
            "games": self.games,
            "provisional": self.provisional,
            "rank": self.rank,
        }


def newcomer(pool: str) -> Standing:
    """The standing of a player yet to play a rated game in the pool."""
    belief = skill.NEWCOMER
    return Standing(
        pool=pool,
        rating=belief.rating,
        deviation=belief.deviation,
        games=0,
        provisional=True,
        rank=None,
    )


def _shown(
    *,
    pool: str,
    belief: skill.Skill,
    last_played_at: datetime,
    steady_until: datetime | None,
    games: int,
    rank: int | None,
    now: datetime,
) -> Standing:
    """A rating as it stands at `now`: its deviation grown since the last game, provisional
    once past the line (`steady_until`), placed only when not provisional."""
    grown = skill.grown(belief, since=last_played_at, now=now)
    provisional = steady_until is None or steady_until <= now
    return Standing(
        pool=pool,
        rating=grown.rating,
        deviation=grown.deviation,
        games=games,
        provisional=provisional,
        rank=None if provisional else rank,
    )


def _standing(rating: Rating, now: datetime) -> Standing:
    """A rating read with its place (`_with_places`) as it stands at `now`."""
    place: Place | None = getattr(rating, "place", None)
    return _shown(
        pool=rating.pool_id,
        belief=rating.skill,
        last_played_at=rating.last_played_at,
        steady_until=rating.steady_until,
        games=rating.games,
        rank=None if place is None else place.rank,
        now=now,
    )


def _with_places() -> QuerySet[Rating]:
    return Rating.objects.select_related("place")


def ratings_of(*, user_id: int, now: datetime) -> list[Standing]:
    """The player's standing in every pool they have played a rated game in, the most played
    first."""
    return [
        _standing(rating, now)
        for rating in _with_places().filter(user_id=user_id).order_by("-games", "pool_id")
    ]


def standing_of(*, user_id: int, pool: str, now: datetime) -> Standing:
    rating = _with_places().filter(user_id=user_id, pool_id=pool).first()
    return newcomer(pool) if rating is None else _standing(rating, now)


def standings(
    *, players: Iterable[tuple[int, str]], now: datetime
) -> dict[tuple[int, str], Standing]:
    """The standings of (user id, pool) pairs in one query of plain rows (a page's names, so
    without the places); a newcomer's for those who have not played in that pool."""
    pairs = set(players)
    if not pairs:
        return {}
    found = {}
    for user_id, pool, mu, sigma, last_played_at, steady_until, games in Rating.objects.filter(
        user_id__in={user_id for user_id, _pool in pairs},
        pool_id__in={pool for _user_id, pool in pairs},
    ).values_list("user_id", "pool_id", "mu", "sigma", "last_played_at", "steady_until", "games"):
        found[user_id, pool] = _shown(
            pool=pool,
            belief=skill.Skill(mu=mu, sigma=sigma),
            last_played_at=last_played_at,
            steady_until=steady_until,
            games=games,
            rank=None,
            now=now,
        )
    return {pair: found.get(pair) or newcomer(pair[1]) for pair in pairs}


def rating_in_pool(*, user_id: int, pool: OuterRef) -> Coalesce:
    """The user's shown rating, as a query expression, in the pool an outer query names
    (`pool`: its reference to a pool's name); a newcomer's where they have not played."""
    shown = Round(
        Value(float(skill.NEWCOMER_RATING)) + (F("mu") - Value(skill.MODEL.mu)) * Value(skill.SCALE)
    )
    rating = Rating.objects.filter(user_id=user_id, pool_id=pool).annotate(shown=shown)
    return Coalesce(
        Subquery(rating.values("shown")[:1], output_field=FloatField()),
        Value(float(skill.NEWCOMER_RATING)),
    )


def changes_of(*, game_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """The shown rating changes of rated games over: game id -> user id -> change."""
    changes: dict[int, dict[int, int]] = {}
    for game_id, user_id, mu_before, mu in RatingChange.objects.filter(
        game_id__in=list(game_ids)
    ).values_list("game_id", "user_id", "mu_before", "mu"):
        changes.setdefault(game_id, {})[user_id] = skill.shown_rating(mu) - skill.shown_rating(
            mu_before
        )
    return changes


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    user: dict[str, Any]  # id, name
    rating: int
    deviation: int
    games: int


def leaderboard(*, pool: str, after: int, limit: int, now: datetime) -> list[LeaderboardRow]:
    """The pool's players placed after `after` (0: from the top), best first, at most `limit`:
    an index range of the places kept by the refresh, never a count of the pool. Players turned
    provisional since the last refresh (a long pause) are left out at once."""
    rows = (
        Place.objects.filter(pool=pool, rank__gt=after, rating__steady_until__gt=now)
        .order_by("rank")
        .values_list(
            "rank",
            "rating__user_id",
            "rating__user__display_name",
            "rating__user__username",
            "rating__mu",
            "rating__sigma",
            "rating__last_played_at",
            "rating__games",
        )[:limit]
    )
    board = []
    for rank, user_id, display_name, username, mu, sigma, last_played_at, games in rows:
        belief = skill.grown(skill.Skill(mu=mu, sigma=sigma), since=last_played_at, now=now)
        board.append(
            LeaderboardRow(
                rank=rank,
                user={"id": user_id, "name": display_name or username},
                rating=belief.rating,
                deviation=belief.deviation,
                games=games,
            )
        )
    return board


def leaderboard_size(*, pool: str) -> int:
    """Players on the pool's leaderboard at its last refresh (its last place)."""
    return Leaderboard.objects.filter(pool_id=pool).values_list("ranked", flat=True).first() or 0


def pools_played() -> dict[str, int]:
    """The pools someone has played a rated game in, with the players on their leaderboards."""
    return dict(Leaderboard.objects.values_list("pool_id", "ranked"))


@dataclass(frozen=True)
class HistoryPoint:
    game_id: int
    at: datetime
    rating: int
    deviation: int


def history(*, user_id: int, pool: str, last: int | None = None) -> list[HistoryPoint]:
    """The player's rating after each of their rated games in the pool (the `last` ones when
    given), oldest first."""
    rows = (
        RatingChange.objects.filter(user_id=user_id, pool=pool)
        .order_by("-at", "-id")
        .values_list("game_id", "at", "mu", "sigma")
    )
    return [
        HistoryPoint(
            game_id=game_id,
            at=at,
            rating=skill.shown_rating(mu),
            deviation=skill.shown_deviation(sigma),
        )
        for game_id, at, mu, sigma in list(rows if last is None else rows[:last])[::-1]
    ]
