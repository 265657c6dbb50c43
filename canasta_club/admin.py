"""Admin pieces shared by the apps."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyInline(admin.TabularInline):
    """An inline that shows history (seats, moves, sanctions) and never changes it."""

    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyModelAdmin(admin.ModelAdmin):
    """A log staff look through and never change (moves, the moderators' audit trail)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
