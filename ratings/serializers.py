"""The ratings API's query parameters and documented shapes (CONTRACT.md §6)."""

from rest_framework import serializers

from ratings.pools import DEFAULT_POOL, POOLS

POOL_HELP = (
    'A rating pool, `"{mode}.{game}.{seats}"`: '
    + ", ".join(f"`{pool}`" for pool in POOLS)
    + f" (default, also for an empty `pool`: `{DEFAULT_POOL}`); another: 400 `unknown_pool`."
)


class PoolQuerySerializer(serializers.Serializer):
    pool = serializers.CharField(
        required=False, default=DEFAULT_POOL, max_length=64, help_text=POOL_HELP
    )


class StandingSerializer(serializers.Serializer):
    """A player's rating in one pool (CONTRACT §6)."""

    pool = serializers.CharField()
    rating = serializers.IntegerField(
        help_text="On the scale where a newcomer is 1500 ± 350 (openskill's Plackett-Luce "
        "model underneath)."
    )
    deviation = serializers.IntegerField(
        help_text="The rating's uncertainty; it grows while the player does not play in the "
        "pool, up to a newcomer's 350."
    )
    games = serializers.IntegerField(help_text="Rated games played in the pool.")
    provisional = serializers.BooleanField(
        help_text="The deviation is above 280: too few games (or a long pause) to place the "
        "player on the leaderboard."
    )
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="The place on the pool's leaderboard (refreshed within seconds of each rated "
        "game); null when provisional.",
    )


class RankedUserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The name shown (display name, else username).")


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 for the best.")
    user = RankedUserSerializer()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()
    games = serializers.IntegerField()


class HistoryPointSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The rated game that moved the rating.")
    at = serializers.DateTimeField(help_text="When the game ended.")
    rating = serializers.IntegerField(help_text="The rating after the game.")
    deviation = serializers.IntegerField(help_text="The deviation after the game.")
