"""Helpers several pages use: the signed-in user, the 404 page, a form's errors as one line, a
player's shown name (a bot's in the page's language) and the players' ratings beside their
names."""

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User
from club.i18n import text
from ratings import selectors as rating_selectors


def signed_in_user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]  # login_required has run


def not_found(request: HttpRequest) -> HttpResponse:
    return render(request, "web/not_found.html", status=404)


def form_error(form: forms.Form) -> str:
    """Every error of a form as one line (for a message or an alert)."""
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def player_name(player: Mapping[str, Any] | None) -> str:
    """A player as the selectors shape them, by their shown name ("?" for an empty seat)."""
    if player is None:
        return "?"
    user = player["user"]
    return shown_name(
        display_name=user["display_name"],
        username=user["username"],
        bot_level=user.get("bot_level") or "",
    )


# A bot's level as its name says it (Russian, English).
_BOT_LEVEL_NAMES = {
    "beginner": ("новичок", "Beginner"),
    "club": ("клуб", "Club"),
    "expert": ("мастер", "Expert"),
}


def shown_name(*, display_name: str, username: str, bot_level: str) -> str:
    """A player's name as the pages show it: their display name (else username); a club bot's
    (bot-club-1) in the page's language, «Бот «клуб» 1» / "Club bot 1" (the name stored with
    the bot is the Russian one)."""
    number = username.removeprefix(f"bot-{bot_level}-")
    if bot_level in _BOT_LEVEL_NAMES and number.isdigit():
        russian, english = _BOT_LEVEL_NAMES[bot_level]
        return text(f"Бот «{russian}» {number}", f"{english} bot {number}")
    return str(display_name or username)


# What the pages call each of the club's games (Rules.game).
_GAME_NAMES = {
    "classic": ("Канаста", "Canasta"),
    "samba": ("Самба", "Samba"),
    "bolivia": ("Боливия", "Bolivia"),
}


def game_name(rules: dict[str, Any]) -> str:
    """A table's game by its name: «Канаста», «Самба», «Боливия» (the rules' `game`; absent
    from a classic table's rules)."""
    return text(*_GAME_NAMES[rules.get("game", "classic")])


def attach_standings(
    tables: Iterable[tuple[str, Sequence[Mapping[str, Any]]]], *, now: datetime
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
        # The page's own key, beside the body's (games.bodies.Player documents no standing).
        cast(dict[str, Any], player)["standing"] = standings[player["user"]["id"], pool]
