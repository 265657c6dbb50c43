"""The log-in forms of the HTML pages: Django's, saying when the failed log-in limits refuse."""

import math
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from accounts import login_limits
from club.i18n import text


def too_many_failures(wait: float) -> str:
    seconds = max(math.ceil(wait), 1)
    return text(
        f"Слишком много неудачных попыток входа. Повторите через {seconds} с.",
        f"Too many failed log-in attempts. Try again in {seconds} s.",
    )


class LoginForm(AuthenticationForm):
    """For every log-in page; the limits themselves hold in authenticate() (LimitedModelBackend),
    this form only tells the person why a refused attempt was not even checked."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username is not None:
            wait = login_limits.retry_after(request=self.request, username=username)
            if wait is not None:
                raise forms.ValidationError(too_many_failures(wait), code="throttled")
        return super().clean()


class AdminLoginForm(LoginForm, AdminAuthenticationForm):
    pass
