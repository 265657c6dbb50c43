"""Helpers several pages use: the signed-in user, the 404 page, a form's errors as one line, a
player's shown name and the players' ratings beside their names."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User
from ratings import selectors as rating_selectors


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


def attach_standings(
    tables: Iterable[tuple[str, Sequence[dict[str, Any]]]], *, now: datetime
) -> None:
    """Each person among the tables' players (as the games selectors shape them), given as
    (pool, players), gets their `standing` in the table's pool, for `{% person ... with_rating
    =True %}`: one query for the whole page."""
    tables = list(tables)
    seated = [
        (pool, player)
        for pool, players in tables
        for player in players
        if not player["user"]["is_bot"]
    ]
    standings = rating_selectors.standings(
        players=[(player["user"]["id"], pool) for pool, player in seated], now=now
    )
    for pool, player in seated:
        player["standing"] = standings[player["user"]["id"], pool]
