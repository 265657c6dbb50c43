"""What the ratings page and the player card's ratings show, from the ratings selectors: a pool's
leaderboard page with the viewer's own place, and a player's ratings with their history drawn as
a chart (an SVG the templates draw from the points laid out here)."""

from dataclasses import dataclass
from datetime import datetime
from math import ceil

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from ratings import pools
from ratings import selectors as rating_selectors
from ratings.selectors import HistoryPoint, LeaderboardRow, Standing

PAGE_SIZE = 50
# The card's chart draws a player's last games in a pool.
CHART_GAMES = 200


@dataclass(frozen=True)
class Leaderboard:
    pool: str
    title: str
    pools: list[tuple[str, str]]  # (pool, title) to choose from
    rows: list[LeaderboardRow]
    page: int
    pages: int
    # The viewer's standing in the pool (signed in), its page on the leaderboard, if placed.
    me: Standing | None
    my_page: int | None
    my_id: int | None


def leaderboard(
    *, pool: str, page: int, viewer: User | AnonymousUser, now: datetime
) -> Leaderboard:
    """A page of the pool's leaderboard (`page` clamped to those there are), 50 places a page:
    an index range of the places, never a count of the pool."""
    played = rating_selectors.pools_played()
    pages = max(1, ceil(played.get(pool, 0) / PAGE_SIZE))
    page = min(max(page, 1), pages)
    me = None
    my_page = None
    if viewer.is_authenticated:
        me = rating_selectors.standing_of(user_id=viewer.pk, pool=pool, now=now)
        if me.rank is not None:
            my_page = (me.rank - 1) // PAGE_SIZE + 1
    return Leaderboard(
        pool=pool,
        title=pools.pool_title(pool),
        pools=[
            (name, pools.pool_title(name))
            for name in pools.POOLS
            if name in played or name in (pool, pools.DEFAULT_POOL)
        ],
        rows=rating_selectors.leaderboard(
            pool=pool, after=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE, now=now
        ),
        page=page,
        pages=pages,
        me=me,
        my_page=my_page,
        my_id=viewer.pk if viewer.is_authenticated else None,
    )


# The chart's drawing area (SVG user units; the picture scales to the card's width).
CHART_WIDTH = 320
CHART_HEIGHT = 120
CHART_LEFT = 36  # room for the ratings' labels
CHART_PAD = 6


@dataclass(frozen=True)
class Chart:
    """A rating history laid out for the SVG: the rating's line, the band of ± one deviation
    around it, the axis labels, and the last point."""

    points: str  # the polyline's "x,y x,y ..."
    band: str  # the polygon's points
    top: int  # the ratings at the top and bottom of the drawing
    bottom: int
    first_at: datetime
    last_at: datetime
    last_x: float
    last_y: float
    games: int
    first_rating: int
    last_rating: int
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    left: int = CHART_LEFT


def chart_of(history: list[HistoryPoint]) -> Chart | None:
    """The history (oldest first) drawn to scale: x by game, y by rating; None when empty."""
    if not history:
        return None
    low = min(point.rating - point.deviation for point in history)
    high = max(point.rating + point.deviation for point in history)
    # Round to 50s, so that the labels are round figures.
    bottom, top = low // 50 * 50, -(-high // 50) * 50
    span = max(top - bottom, 1)
    steps = max(len(history) - 1, 1)
    inner = CHART_WIDTH - CHART_LEFT - CHART_PAD

    def x(index: int) -> float:
        return round(CHART_LEFT + (inner * index / steps if len(history) > 1 else inner), 1)

    def y(rating: float) -> float:
        return round(CHART_PAD + (top - rating) * (CHART_HEIGHT - 2 * CHART_PAD) / span, 1)

    line = [(x(index), y(point.rating)) for index, point in enumerate(history)]
    upper = [(x(index), y(point.rating + point.deviation)) for index, point in enumerate(history)]
    lower = [(x(index), y(point.rating - point.deviation)) for index, point in enumerate(history)]
    if len(history) == 1:  # one game: a short level stroke ending at the point
        line.insert(0, (CHART_LEFT, line[0][1]))
        upper.insert(0, (CHART_LEFT, upper[0][1]))
        lower.insert(0, (CHART_LEFT, lower[0][1]))
    return Chart(
        points=" ".join(f"{px},{py}" for px, py in line),
        band=" ".join(f"{px},{py}" for px, py in [*upper, *reversed(lower)]),
        top=top,
        bottom=bottom,
        first_at=history[0].at,
        last_at=history[-1].at,
        last_x=line[-1][0],
        last_y=line[-1][1],
        games=len(history),
        first_rating=history[0].rating,
        last_rating=history[-1].rating,
    )


@dataclass(frozen=True)
class PoolRating:
    standing: Standing
    title: str
    chart: Chart | None
    page: int | None = None  # the standing's page on the leaderboard


def ratings_on_card(*, user: User, now: datetime) -> list[PoolRating]:
    """The player's rating in each pool they played rated games in, with its chart."""
    shown = []
    for standing in rating_selectors.ratings_of(user_id=user.pk, now=now):
        history = rating_selectors.history(user_id=user.pk, pool=standing.pool, last=CHART_GAMES)
        shown.append(
            PoolRating(
                standing=standing,
                title=pools.pool_title(standing.pool),
                chart=chart_of(history),
                page=(standing.rank - 1) // PAGE_SIZE + 1 if standing.rank else None,
            )
        )
    return shown
