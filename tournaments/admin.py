"""Staff tools: tournaments with their entries and rounds, read-only (changes go through the
services: entering, starting, the sweep)."""

from django.contrib import admin

from club.admin import ReadOnlyInline, ReadOnlyModelAdmin
from tournaments.models import Entry, EntryPlayer, Round, Tournament


class EntryPlayerInline(ReadOnlyInline):
    model = EntryPlayer
    fields = ("user", "position")
    readonly_fields = fields


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "started_at", "deadline", "ended_at")
    readonly_fields = fields
    fk_name = "tournament"


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyModelAdmin):
    list_display = (
        "id",
        "name",
        "status",
        "mode",
        "format",
        "partners",
        "duplicate",
        "current_round",
        "rounds",
        "created_by",
        "created_at",
    )
    list_filter = ("status", "mode", "format", "partners", "duplicate")
    search_fields = ("=id", "name", "created_by__username")
    list_select_related = ("created_by",)
    inlines = (RoundInline,)
    readonly_fields = tuple(field.name for field in Tournament._meta.get_fields() if field.concrete)


@admin.register(Entry)
class EntryAdmin(ReadOnlyModelAdmin):
    list_display = ("id", "tournament", "number", "created_at")
    search_fields = ("=tournament__id", "players__user__username")
    list_select_related = ("tournament",)
    inlines = (EntryPlayerInline,)
    readonly_fields = ("tournament", "number", "created_at")
