"""Admin pieces shared by the apps."""

from typing import Any

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP
from django.db.models.fields.reverse_related import ForeignObjectRel
from django.http import HttpRequest

# (app label, model, field) that no admin list may be filtered by, for anybody, superusers too:
# `?reporter=<id>` on reports (or `?reports_filed__id=` on users) would name a report's reporter
# in a few requests, unaudited. The reporter is shown only on a report's page, to holders of
# the permission, and each view is audited (moderation/admin.py).
UNFILTERABLE_FIELDS = {("moderation", "report", "reporter")}


def lookup_crosses_unfilterable_field(model: type[Model], lookup: str) -> bool:
    """True when the `?lookup=` path goes through an UNFILTERABLE_FIELDS field, forwards (its
    name or attname) or backwards (the reverse relation of the foreign key)."""
    opts = model._meta
    for part in lookup.split(LOOKUP_SEP):
        try:
            field = opts.get_field(part)
        except FieldDoesNotExist:
            return False  # a lookup (`exact`, `in`) or a transform: the path has ended
        declared = field.field if isinstance(field, ForeignObjectRel) else field
        owner = declared.model._meta
        if (owner.app_label, owner.model_name, declared.name) in UNFILTERABLE_FIELDS:
            return True
        related = field.related_model
        if related is None or isinstance(related, str):  # a plain column: the path has ended
            return False
        opts = related._meta
    return False


class ClubModelAdmin(admin.ModelAdmin):
    """Every admin of the club (tests/moderation/test_admin.py checks it): Django's
    `lookup_allowed` accepts any filter on a local foreign key, list_filter or not."""

    def lookup_allowed(self, lookup: str, value: str, request: Any = None) -> bool:
        if lookup_crosses_unfilterable_field(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)


class ReadOnlyInline(admin.TabularInline):
    """An inline that shows history (seats, moves, sanctions) and never changes it."""

    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyModelAdmin(ClubModelAdmin):
    """A log staff look through and never change (moves, the moderators' audit trail)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
