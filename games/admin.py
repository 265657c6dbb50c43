"""Staff tools: games with their seats, deal results and move log, all read-only.

State changes go through the services only (the move log is append-only), so the admin shows
games and lets staff search and filter; it never edits a running game.
"""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from club.admin import ClubModelAdmin, ReadOnlyInline, ReadOnlyModelAdmin
from games.models import DealRecord, Game, Move, Seat, TurnReminder


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = (
        "seat",
        "team",
        "user",
        "joined_at",
        "last_seen_at",
        "is_absent",
        "consecutive_timeouts",
    )
    readonly_fields = fields


class DealRecordInline(ReadOnlyInline):
    model = DealRecord
    fields = ("number", "dealer", "seed", "result", "scores_after", "finished_at")
    readonly_fields = fields


class MoveInline(ReadOnlyInline):
    model = Move
    fields = (
        "seq",
        "deal_number",
        "seat",
        "action",
        "automatic",
        "public",
        "private",
        "created_at",
    )
    readonly_fields = fields
    ordering = ("seq",)


@admin.register(Game)
class GameAdmin(ClubModelAdmin):
    list_display = (
        "id",
        "mode",
        "length",
        "status",
        "private",
        "created_by",
        "deal_number",
        "scores",
        "version",
        "turn_seat",
        "turn_deadline",
        "created_at",
    )
    list_filter = ("status", "mode", "length", "private")
    search_fields = ("=id", "seats__user__username", "created_by__username")
    date_hierarchy = "created_at"
    list_select_related = ("created_by",)
    inlines = (SeatInline, DealRecordInline, MoveInline)
    readonly_fields = tuple(
        field.name for field in Game._meta.get_fields() if field.concrete and not field.many_to_many
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Staff may view; changes go through the services.
        return False


@admin.register(Move)
class MoveAdmin(ReadOnlyModelAdmin):
    list_display = ("game", "seq", "deal_number", "seat", "automatic", "created_at")
    list_filter = ("automatic",)
    search_fields = ("=game__id",)
    list_select_related = ("game",)
    readonly_fields = ("game", *MoveInline.fields)


@admin.register(TurnReminder)
class TurnReminderAdmin(ClubModelAdmin):
    list_display = ["game", "turn_deadline", "sent_at"]
    raw_id_fields = ["game"]
