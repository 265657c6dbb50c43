"""The pages' correspondence time off (issue 21): the profile's vacation and days off, and the
table's agreed pause. Thin: the same services as the API (games.time_off, games.pauses)."""

from datetime import datetime, time
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from canasta_club.errors import ClubError
from canasta_club.i18n import text
from games import pauses, time_off
from web.refusals import refusal_of
from web.time_off_forms import PauseForm, TimeOffForm, VacationForm
from web.views import _table_with_alert


def _user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]  # login_required has run


def _back_to_profile(request: HttpRequest, *, error: str = "", saved: str = "") -> HttpResponse:
    if error:
        messages.error(request, error)
    elif saved:
        messages.success(request, saved)
    return redirect("web:profile")


def _form_error(form: VacationForm | TimeOffForm | PauseForm) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


@login_required
@require_POST
def start_vacation(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    form = VacationForm(request.POST)
    if not form.is_valid():
        return _back_to_profile(request, error=_form_error(form))
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
        time_off.end_vacation(user=_user(request))
    except ClubError as error:
        return _back_to_profile(request, error=error.message)
    return _back_to_profile(request, saved=text("Отпуск закончен.", "Vacation ended."))


@login_required
@require_POST
def update_time_off(request: HttpRequest) -> HttpResponse:
    form = TimeOffForm(request.POST)
    if not form.is_valid():
        return _back_to_profile(request, error=_form_error(form))
    try:
        time_off.update_time_off(
            user=_user(request),
            auto=form.cleaned_data["auto"],
            weekend_days=[int(day) for day in form.cleaned_data["weekend_days"]],
            time_zone=form.cleaned_data["time_zone"],
        )
    except ClubError as error:
        return _back_to_profile(request, error=error.message)
    return _back_to_profile(request, saved=text("Сохранено.", "Saved."))


def _refused(request: HttpRequest, game_id: int, exc: ClubError) -> HttpResponse:
    refusal = refusal_of(exc)
    return _table_with_alert(request, game_id, refusal.message, refusal.status)


@login_required
@require_POST
def ask_pause(request: HttpRequest, game_id: int) -> HttpResponse:
    form = PauseForm(request.POST)
    if not form.is_valid():
        return _table_with_alert(request, game_id, _form_error(form), 400)
    try:
        pauses.ask_pause(game_id=game_id, user=_user(request), days=form.cleaned_data["days"])
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return redirect("web:table", game_id=game_id)


@login_required
@require_POST
def accept_pause(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        pauses.accept_pause(game_id=game_id, user=_user(request))
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return redirect("web:table", game_id=game_id)


@login_required
@require_POST
def resume_pause(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        pauses.resume_pause(game_id=game_id, user=_user(request))
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return redirect("web:table", game_id=game_id)
