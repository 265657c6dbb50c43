from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from accounts.models import User
from canasta_club.admin import ClubModelAdmin


@admin.register(User)
class UserAdmin(ClubModelAdmin, DjangoUserAdmin):
    # Authority and sanctions are read-only: moderation's services move them and keep the history.
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        ("Club", {"fields": ("display_name", "language", "authority")}),
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
    readonly_fields = ("authority", "muted_until", "suspended_until")
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
