"""Helpers several pages use: the signed-in user, the 404 page, a form's errors as one line and
a player's shown name."""

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User


def signed_in_user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]  # login_required has run


def not_found(request: HttpRequest) -> HttpResponse:
    return render(request, "web/not_found.html", status=404)


def form_error(form: forms.Form) -> str:
    """Every error of a form as one line (for a message or an alert)."""
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def player_name(player: dict[str, Any] | None) -> str:
    """A player as the selectors shape them, by their shown name ("?" for an empty seat)."""
    if player is None:
        return "?"
    return str(player["user"]["display_name"] or player["user"]["username"])
