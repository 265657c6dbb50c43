"""The one HTML page a player meets outside the API: the emailed password reset link."""

from typing import Any

from django.contrib import admin
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import PasswordResetCompleteView, PasswordResetConfirmView
from django.db import transaction
from django.http import HttpResponse
from django.urls import path, reverse_lazy

from accounts import services


class ClubBranding:
    """The admin templates these pages use show the club's name, not Django's."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)  # type: ignore[misc]
        context.update(site_header=admin.site.site_header, site_title=admin.site.site_title)
        return context


class PasswordResetPage(ClubBranding, PasswordResetConfirmView):
    """Opening the emailed link, a person chooses the new password in the browser (Django's
    own page and checks). Programs POST the link's uid and token to the API's confirm endpoint
    instead; either way every API token stops working."""

    success_url = reverse_lazy("password-reset-complete")

    def form_valid(self, form: "SetPasswordForm[Any]") -> HttpResponse:
        with transaction.atomic():
            response = super().form_valid(form)
            services.revoke_all_tokens(user=form.user)
        return response


class PasswordResetDone(ClubBranding, PasswordResetCompleteView):
    pass


urlpatterns = [
    path("<uidb64>/<token>/", PasswordResetPage.as_view(), name="password-reset-page"),
    path("done/", PasswordResetDone.as_view(), name="password-reset-complete"),
]
