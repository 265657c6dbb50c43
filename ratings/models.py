"""Ratings: each player's standing in a pool, every game's move of it, and the pools' leaderboards.

`Rating` holds a player's current belief in the library's units (ratings.skill); `RatingChange`
is one game's move of one player's rating, unique per game and player (the guarantee that a
game's ratings move once); `Pool` is each pool's row, its lock (ratings of a pool move one game
at a time, in the order games end); `Leaderboard` and `Place` are the pool's leaderboard as its
last refresh placed it.
"""

from django.conf import settings
from django.db import models

from ratings import skill


class Pool(models.Model):
    """A rating pool (`async.classic.4`, ratings.pools). Its row is locked by every write of the
    pool's ratings, so they move one game at a time, in the order the games end; `version` counts
    the games rated there (the leaderboard's refresh compares it with the one it placed)."""

    name = models.CharField(primary_key=True, max_length=24)
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return self.name


class Leaderboard(models.Model):
    """A pool's leaderboard as its last refresh placed it. Its row is the refresh's own lock,
    apart from the pool's: a game's end never waits for a refresh, nor a refresh for a game."""

    pool = models.OneToOneField(Pool, primary_key=True, on_delete=models.CASCADE)
    # The pool's version the last refresh placed: a refresh is due when the pool's moved on.
    placed_version = models.PositiveIntegerField(default=0)
    # Players placed at the last refresh: places 1 to `ranked`.
    ranked = models.PositiveIntegerField(default=0)
    refreshed_at = models.DateTimeField(null=True, blank=True)
    # When the first player placed turns provisional (a long pause): a refresh is due then too.
    next_dropout_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.pool_id}: {self.ranked} placed"


class Rating(models.Model):
    """A player's rating in a pool: the belief after their last game there."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    pool = models.ForeignKey(Pool, on_delete=models.PROTECT, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    # The end of their last rated game in the pool: the deviation grows from here.
    last_played_at = models.DateTimeField()
    # When the growing deviation passes the provisional line; null: provisional now.
    steady_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], name="rating_once_per_pool"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.pool_id}: {self.skill.rating}"

    @property
    def skill(self) -> skill.Skill:
        return skill.Skill(mu=self.mu, sigma=self.sigma)


class Place(models.Model):
    """A rating's place on its pool's leaderboard at the last refresh, written by the refresh
    alone (ratings.services.refresh_leaderboard); none while the rating is provisional."""

    rating = models.OneToOneField(
        Rating, primary_key=True, on_delete=models.CASCADE, related_name="place"
    )
    pool = models.CharField(max_length=24)  # the rating's, for the index of the pages
    rank = models.PositiveIntegerField()

    class Meta:
        indexes = [
            # The leaderboard's pages: the places in order, from any place on.
            models.Index(fields=["pool", "rank"], name="place_leaderboard"),
        ]

    def __str__(self) -> str:
        return f"{self.pool} #{self.rank}"


class RatingChange(models.Model):
    """One rated game's move of one player's rating; one per game and player, ever."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    # The game's pool (its Rating's names the Pool row; a name here spares a backfill's
    # 400,000 rows a foreign key's check each).
    pool = models.CharField(max_length=24)
    # The player's belief as the game ended (the deviation grown since their last game), and
    # after it.
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    # The game's end.
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once_per_game"),
        ]
        indexes = [
            # A player's history in a pool, oldest first (the card's chart).
            models.Index(fields=["user", "pool", "at", "id"], name="rating_history"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id}: {self.user_id} {self.change:+d}"

    @property
    def change(self) -> int:
        """The move of the shown rating."""
        return skill.shown_rating(self.mu) - skill.shown_rating(self.mu_before)
