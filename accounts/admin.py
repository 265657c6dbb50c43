from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts import services
from accounts.models import ApiToken, User
from club.admin import ClubModelAdmin


@admin.register(User)
class UserAdmin(ClubModelAdmin, DjangoUserAdmin):
    # Authority and sanctions are read-only: moderation's services move them and keep the history;
    # so are the games counters, which games' services move as games end.
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (
            "Club",
            {
                "fields": (
                    "display_name",
                    "language",
                    "authority",
                    ("games_played", "games_won", "games_abandoned"),
                )
            },
        ),
        ("Sanctions", {"fields": ("muted_until", "suspended_until")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": (
                    "username",
                    "email",
                    "display_name",
                    "usable_password",
                    "password1",
                    "password2",
                ),
            },
        ),
    )
    readonly_fields = (
        "authority",
        "games_played",
        "games_won",
        "games_abandoned",
        "muted_until",
        "suspended_until",
    )
    list_display = (
        "username",
        "display_name",
        "email",
        "authority",
        "is_staff",
        "muted_until",
        "suspended_until",
    )
    list_filter = (*DjangoUserAdmin.list_filter, "language")
    search_fields = (*DjangoUserAdmin.search_fields, "display_name")
    actions = ("end_browser_sessions",)

    @admin.action(
        description="End their browser sessions (signed out of every browser at once)",
        permissions=["change"],
    )
    def end_browser_sessions(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        ended = services.end_browser_sessions(users=queryset)
        self.message_user(request, f"{ended} session(s) ended.", messages.SUCCESS)


@admin.register(ApiToken)
class ApiTokenAdmin(ClubModelAdmin):
    """Staff may revoke (delete) a token; a key is never shown, only its device and dates."""

    list_display = ("id", "user", "device", "created_at", "last_used_at", "expires_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "device")
    readonly_fields = ("user", "digest", "device", "created_at", "last_used_at", "expires_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
