"""A game's part in the players' ratings (the ratings app): its pool, the rating range a table
asks for, and a rated game's end as the ratings take it (its sides in order).

A game is rated when it was opened rated (the default) and no bot sat at it when it started.
A seat abandoned to a bot later keeps the game rated: the player who abandoned it stands for the
seat, and their side places last, whatever the score (sides that abandoned share the last place:
at three sides a later abandoner must not gain from an earlier one).
"""

from collections.abc import Mapping, Sequence
from datetime import datetime
from itertools import groupby

from accounts.models import User
from club import clock
from club.errors import Forbidden, Invalid
from club.i18n import text
from games.engine import Rules
from games.models import Abandonment, Game, Seat
from games.store import LoadedGame
from ratings import pools
from ratings import selectors as rating_selectors
from ratings import services as rating_services
from ratings.services import GameResult

# The shown ratings a table's range may name.
RANGE_LIMITS = (0, 5000)


def pool_of(*, mode: str, rules: Rules) -> str:
    return pools.pool_name(mode=mode, game=rules.game, players=rules.players)


def checked_range(
    *, rated: bool, rating_range: Sequence[int] | None, pool: str, creator: User
) -> tuple[int, int] | None:
    """A new table's rating range [min, max], if it asks for one: on a rated table, the lower
    end first, within RANGE_LIMITS, its creator's own rating inside it."""
    if rating_range is None:
        return None
    if not rated:
        raise Invalid(
            "rating_range_on_casual_table",
            text(
                "Диапазон рейтинга бывает только у рейтингового стола.",
                "Only a rated table may ask for a rating range.",
            ),
        )
    low, high = rating_range
    if not RANGE_LIMITS[0] <= low <= high <= RANGE_LIMITS[1]:
        raise Invalid(
            "invalid_rating_range",
            text(
                f"Диапазон рейтинга — от меньшего к большему, в пределах {RANGE_LIMITS[0]}–"
                f"{RANGE_LIMITS[1]}: не {low}–{high}.",
                f"A rating range goes from the lower to the higher, within {RANGE_LIMITS[0]}-"
                f"{RANGE_LIMITS[1]}: not {low}-{high}.",
            ),
        )
    own = rating_selectors.standing_of(user_id=creator.pk, pool=pool, now=clock.now()).rating
    if not low <= own <= high:
        raise Invalid(
            "invalid_rating_range",
            text(
                f"Ваш рейтинг за таким столом — {own}: он вне диапазона {low}–{high}.",
                f"Your rating at such a table is {own}: outside the range {low}-{high}.",
            ),
        )
    return (low, high)


def holds(*, game: Game, user: User, now: datetime) -> bool:
    """The table asks for no rating range, or the player's rating in its pool is inside it."""
    return _rating_outside(game=game, user=user, now=now) is None


def refuse_out_of_range(*, game: Game, user: User, now: datetime) -> None:
    """403 `rating_out_of_range` for a player rated outside the table's range in its pool."""
    own = _rating_outside(game=game, user=user, now=now)
    if own is not None and game.rating_range is not None:
        low, high = game.rating_range
        raise Forbidden(
            "rating_out_of_range",
            text(
                f"Этот стол ждёт игроков с рейтингом {low}–{high}, а ваш — {own}.",
                f"This table is for players rated {low}-{high}; yours is {own}.",
            ),
        )


def _rating_outside(*, game: Game, user: User, now: datetime) -> int | None:
    """The player's rating in the table's pool, when the table's range leaves it out."""
    bounds = game.rating_range
    if bounds is None:
        return None
    own = rating_selectors.standing_of(user_id=user.pk, pool=game.pool, now=now).rating
    return None if bounds[0] <= own <= bounds[1] else own


def result_of(
    *, game: Game, seated: Mapping[int, int], left: Mapping[int, int]
) -> GameResult | None:
    """The game over as the ratings take it: each team a side of the people who played its
    seats, the sides in their places. `seated`: seat -> the person sitting there at the end
    (bots left out); `left`: seat -> the person who abandoned it to a bot (`Abandonment`), who
    stands for it. None for a game with a side no person played (never one started rated)."""
    seating = Rules.from_options(game.rules).seating
    player_of = {**seated, **left}
    sides = tuple(
        tuple(player_of[seat] for seat in members if seat in player_of) for members in seating.teams
    )
    ended = game.finished_at
    if not all(sides) or ended is None:
        return None
    abandoned = {seating.team_of(seat) for seat in left}
    if game.abandoned_by_seat is not None:
        abandoned.add(seating.team_of(game.abandoned_by_seat))

    def standing(team: int) -> tuple[bool, bool, int]:
        """Sides that stayed by the result (the winner, then the scores); those that abandoned
        below, together."""
        if team in abandoned:
            return (True, True, 0)
        return (False, game.winner_team != team, -game.scores[team])

    order = sorted(range(len(sides)), key=standing)
    places = [0] * len(sides)
    for place, (_key, teams) in enumerate(groupby(order, key=standing)):
        for team in teams:
            places[team] = place
    return GameResult(
        game_id=game.pk,
        pool=game.pool,
        sides=sides,
        places=tuple(places),
        ended_at=ended,
    )


def rate_game_over(locked: LoadedGame) -> None:
    """A rated game is over (its status, winner and end set): its players' ratings move, in the
    transaction that ends it."""
    game = locked.game
    if not game.rated:
        return
    result = result_of(
        game=game,
        seated={seat.seat: seat.user_id for seat in locked.seats if not seat.user.is_bot},
        left=dict(Abandonment.objects.filter(game=game).values_list("seat", "user_id")),
    )
    if result is not None:
        rating_services.rate_game(result=result)


def rate_finished_games() -> dict[str, rating_services.Backfill]:
    """Every pool's rated games over, rated in the order they ended (those not yet rated; the
    whole pool again when some ended before a game already rated): the backfill."""
    games = (
        Game.objects.filter(rated=True, status__in=Game.OVER_STATUSES)
        .exclude(finished_at__isnull=True)
        .only("pk", "rules", "pool", "scores", "winner_team", "abandoned_by_seat", "finished_at")
        .order_by("pool", "finished_at", "pk")
    )
    # Plain rows, not model instances: a backfill reads every rated game's seats.
    seated: dict[int, dict[int, int]] = {}
    for game_id, seat, user_id, bot_level in Seat.objects.filter(game__in=games).values_list(
        "game_id", "seat", "user_id", "user__bot_level"
    ):
        if not bot_level:
            seated.setdefault(game_id, {})[seat] = user_id
    left: dict[int, dict[int, int]] = {}
    for game_id, seat, user_id in Abandonment.objects.filter(game__in=games).values_list(
        "game_id", "seat", "user_id"
    ):
        left.setdefault(game_id, {})[seat] = user_id
    done = {}
    for pool, pool_games in groupby(games.iterator(chunk_size=5000), key=lambda game: game.pool):
        results = [
            result
            for game in pool_games
            if (
                result := result_of(
                    game=game, seated=seated.get(game.pk, {}), left=left.get(game.pk, {})
                )
            )
            is not None
        ]
        done[pool] = rating_services.rate_in_order(pool=pool, results=results)
    return done
