"""The account's pages: sign-up, log-in and log-out, the profile with its vacation and days off
(issue 21), the language switch, and the password reset (the request, and the emailed link's
page where a person chooses the new password).

Thin: the same services as the API (accounts.services, games.services.time_off).
"""

from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts import services as account_services
from accounts.session_login import FreshSessionLoginView
from club.errors import ClubError
from club.i18n import text
from games import selectors as game_selectors
from games.services import time_off
from social import selectors as social_selectors
from web.account.forms import (
    PasswordResetRequestForm,
    ProfileForm,
    SignUpForm,
    TimeOffForm,
    VacationForm,
)
from web.middleware import LANGUAGE_CODES, LANGUAGE_COOKIE
from web.refusals import refusal_of
from web.shared import form_error, signed_in_user

LANGUAGE_COOKIE_AGE = 365 * 24 * 3600


def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user, _token = account_services.register_user(**form.cleaned_data)
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
        else:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            return redirect(_next_page(request))
    return render(
        request,
        "web/signup.html",
        {"form": form, "next": _next_page(request)},
        status=400 if form.errors else 200,
    )


def _next_page(request: HttpRequest) -> str:
    """Where sign-up leads (`next`, a page of the club's own; the welcome's «Играть с ботами»
    leads to /play/), else the lobby."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("web:lobby")


class LogInView(FreshSessionLoginView):
    """The club's log-in (accounts.session_login: a new session each time, 429 while the
    failed log-in limits refuse); lands on the lobby."""

    template_name = "web/login.html"
    next_page = "/"


class LogOutView(auth_views.LogoutView):
    next_page = "/"


def password_reset(request: HttpRequest) -> HttpResponse:
    """The email flow of the API: a link to /password-reset/{uid}/{token}/ (if the email has an
    account; the page says the same either way)."""
    form = PasswordResetRequestForm(request.POST or None)
    sent = False
    if request.method == "POST" and form.is_valid():
        account_services.request_password_reset(email=form.cleaned_data["email"])
        sent = True
    return render(request, "web/password_reset.html", {"form": form, "sent": sent})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    initial = {
        "display_name": user.display_name,
        "email": user.email,
        "language": user.language,
        "confirm_discard": user.confirm_discard,
        "phrases_muted": user.phrases_muted,
    }
    form = ProfileForm(request.POST or None, initial=initial)
    saved = False
    if request.method == "POST" and form.is_valid():
        try:
            account_services.update_profile(request=request, user=user, **form.cleaned_data)
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
        else:
            return redirect(reverse("web:profile") + "?saved=1")
    saved = request.GET.get("saved") == "1"
    return render(
        request,
        "web/profile.html",
        {
            "form": form,
            "saved": saved,
            "stats": game_selectors.player_stats(user=user),
            "blocked": social_selectors.blocked_by(user=user),
        },
        status=400 if form.errors else 200,
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switch: the user's language when signed in, a cookie for visitors (both, in fact, so
    the page after log-out keeps it)."""
    language = request.POST.get("language", "")
    back = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = "/"
    response = HttpResponseRedirect(back)
    if language in LANGUAGE_CODES:
        if request.user.is_authenticated:
            account_services.update_profile(
                request=request, user=signed_in_user(request), language=language
            )
        response.set_cookie(LANGUAGE_COOKIE, language, max_age=LANGUAGE_COOKIE_AGE, samesite="Lax")
    return response


def _back_to_profile(request: HttpRequest, *, error: str = "", saved: str = "") -> HttpResponse:
    if error:
        messages.error(request, error)
    elif saved:
        messages.success(request, saved)
    return redirect("web:profile")


@login_required
@require_POST
def start_vacation(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    form = VacationForm(request.POST)
    if not form.is_valid():
        return _back_to_profile(request, error=form_error(form))
    start = form.cleaned_data["start"]
    try:
        time_off.start_vacation(
            user=user,
            days=form.cleaned_data["days"],
            # A day chosen on the page starts at midnight in the player's own zone.
            start=None
            if start is None
            else datetime.combine(start, time(0), tzinfo=ZoneInfo(user.time_zone)),
        )
    except ClubError as error:
        return _back_to_profile(request, error=error.message)
    return _back_to_profile(request, saved=text("Отпуск назначен.", "Vacation set."))


@login_required
@require_POST
def end_vacation(request: HttpRequest) -> HttpResponse:
    try:
        time_off.end_vacation(user=signed_in_user(request))
    except ClubError as error:
        return _back_to_profile(request, error=error.message)
    return _back_to_profile(request, saved=text("Отпуск закончен.", "Vacation ended."))


@login_required
@require_POST
def update_time_off(request: HttpRequest) -> HttpResponse:
    form = TimeOffForm(request.POST)
    if not form.is_valid():
        return _back_to_profile(request, error=form_error(form))
    try:
        time_off.update_time_off(
            user=signed_in_user(request),
            auto=form.cleaned_data["auto"],
            weekend_days=[int(day) for day in form.cleaned_data["weekend_days"]],
            time_zone=form.cleaned_data["time_zone"],
        )
    except ClubError as error:
        return _back_to_profile(request, error=error.message)
    return _back_to_profile(request, saved=text("Сохранено.", "Saved."))


class PasswordResetLinkPage(auth_views.PasswordResetConfirmView):
    """Opening the emailed link, a person chooses the new password in the browser (Django's
    view checks the link and moves its token into the session). The new password goes through
    the same service as the API's confirm endpoint: either way every API token stops working."""

    template_name = "web/password_reset_link.html"
    success_url = reverse_lazy("password-reset-complete")

    def form_valid(self, form: "SetPasswordForm[Any]") -> HttpResponse:
        try:
            account_services.reset_password(
                uid=self.kwargs["uidb64"],
                token=self.request.session[INTERNAL_RESET_SESSION_TOKEN],
                new_password=form.cleaned_data["new_password1"],
            )
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
            return self.form_invalid(form)
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetDone(auth_views.PasswordResetCompleteView):
    template_name = "web/password_reset_done.html"
