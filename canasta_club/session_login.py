"""The browsable API's session log-in (/api-auth/login/), with failed attempts throttled.

DRF's own login view has no limit, so a password could be guessed there while the token endpoint
refuses. Failures are counted per username and client address in Django's cache; the rate is the
`session_login` scope of REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (None: unlimited, as in tests).
"""

from typing import Any

from django import forms
from django.contrib.auth import views
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import SimpleRateThrottle

from canasta_club.i18n import text


class FailedLoginRate(SimpleRateThrottle):
    """Only the rate: the failures are counted by the form below, not per request."""

    scope = "session_login"


def _failures_key(request: HttpRequest | None, username: str) -> str:
    address = request.META.get("REMOTE_ADDR", "") if request is not None else ""
    return f"session_login_failures:{address}:{username.casefold()}"


class ThrottledAuthenticationForm(AuthenticationForm):
    def clean(self) -> dict[str, Any]:
        rate = FailedLoginRate()
        allowed, window = rate.parse_rate(rate.get_rate())
        if allowed is None or window is None:
            return super().clean()
        key = _failures_key(self.request, self.cleaned_data.get("username") or "")
        if cache.get(key, 0) >= allowed:
            raise forms.ValidationError(
                text(
                    "Слишком много неудачных попыток входа. Попробуйте позже.",
                    "Too many failed log-in attempts. Please try again later.",
                ),
                code="throttled",
            )
        try:
            return super().clean()
        except forms.ValidationError:
            # The window starts at the first failure; add() is a no-op when the key exists.
            cache.add(key, 0, timeout=window)
            cache.incr(key)
            raise


class SessionLoginView(views.LoginView):
    template_name = "rest_framework/login.html"
    authentication_form = ThrottledAuthenticationForm

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response
