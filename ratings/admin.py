from django.contrib import admin

from club.admin import ReadOnlyModelAdmin
from ratings.models import Leaderboard, Rating, RatingChange


@admin.register(Leaderboard)
class LeaderboardAdmin(ReadOnlyModelAdmin):
    """Each pool's leaderboard: how many are placed and when (ratings.services)."""

    list_display = ["pool", "ranked", "refreshed_at", "placed_version", "next_dropout_at"]


@admin.register(Rating)
class RatingAdmin(ReadOnlyModelAdmin):
    """Ratings move only with games (ratings.services), never by hand."""

    list_display = ["user", "pool", "games", "last_played_at", "mu", "sigma"]
    list_filter = ["pool"]
    raw_id_fields = ["user"]
    search_fields = ["user__username"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyModelAdmin):
    list_display = ["game", "user", "pool", "at", "mu_before", "mu"]
    list_filter = ["pool"]
    raw_id_fields = ["game", "user"]
    search_fields = ["user__username"]
