"""Pieces the header, the lobby and the table include: the bell, the club's mood and a finished
game's afterwords. Each calls its selector, so the pages that include them stay as they are.

And the player card's lists and the moderators' queue, written out here rather than looped in
their templates: each shows dozens of rows on every visit, and each row's template nodes cost
more than the page's queries.
"""

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator

from canasta_club.i18n import text
from games.models import Game
from moderation import selectors as moderation_selectors
from moderation.permissions import MODERATE_PERMISSION
from moderation.selectors import CitableAfterword, ReportableGame
from web import club_selectors
from web.club_forms import ReportForm
from web.club_selectors import QueueRow

register = template.Library()


@register.inclusion_tag("web/_bell.html", takes_context=True)
def notifications_bell(context: template.Context) -> dict[str, Any]:
    user = context["request"].user
    if not user.is_authenticated:
        return {"show": False}
    return {
        "show": True,
        # Counted with the header's badge (web.context_processors.club), in the same query.
        "unread": context.get("notifications_unread", 0),
        # Moderators are staff (moderation.services.appoint_moderator): others skip the lookup.
        "moderator": user.is_staff and user.has_perm(MODERATE_PERMISSION),
    }


@register.inclusion_tag("web/_mood.html")
def club_mood() -> dict[str, Any]:
    return {"mood": moderation_selectors.club_mood()}


@register.inclusion_tag("web/_afterwords.html", takes_context=True)
def afterwords_of(context: template.Context, game: Any) -> dict[str, Any]:
    request = context["request"]
    return {
        "panel": club_selectors.afterwords_panel(game=game, viewer=request.user),
        "game": game,
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "messages": context.get("messages"),
    }


def _local(moment: datetime | None, pattern: str) -> str:
    return timezone.localtime(moment).strftime(pattern) if moment else ""


def _outcome(game: Mapping[str, Any]) -> str:
    if game["status"] == Game.Status.ABANDONED:
        return text("брошена", "abandoned")
    if game["won"]:
        return text("победа", "won")
    if game["winner_team"] is None:
        return text("ничья", "draw")
    return text("поражение", "lost")


@register.simple_tag
def finished_game_rows(games: Iterable[Mapping[str, Any]]) -> SafeString:
    """The card's recent games (games.selectors.player_record): each a link to its
    table with the outcome for the card's player, the score, the players and when it ended."""
    return format_html_join(
        "\n",
        '<li class="game-row"><a class="game-link" href="{}">\n<span class="game-title">#{} · {} · '
        '{} : {}</span>\n<span class="game-players">{}</span>\n<span class="game-when">{}</span>'
        "</a></li>",
        (
            (
                reverse("web:table", kwargs={"game_id": game["id"]}),
                game["id"],
                _outcome(game),
                game["scores"][0],
                game["scores"][1],
                ", ".join(
                    player["user"]["display_name"] or player["user"]["username"]
                    for player in game["players"]
                ),
                _local(game["finished_at"], "%d.%m.%Y %H:%M"),
            )
            for game in games
        ),
    )


@register.simple_tag
def authority_change_rows(changes: Iterable[Mapping[str, Any]]) -> SafeString:
    """The card's Authority changes: each its amount (signed, coloured), why, and the day."""
    return format_html_join(
        "",
        '\n    <li><strong class="{}">{}</strong> — {} <span class="muted">{}</span></li>\n  ',
        (
            (
                _amount_class(change["amount"]),
                f"+{change['amount']}" if change["amount"] > 0 else change["amount"],
                change["why"],
                _local(change["at"], "%d.%m.%Y"),
            )
            for change in changes
        ),
    )


def _amount_class(amount: int) -> str:
    if amount > 0:
        return "ok"
    return "field-error" if amount < 0 else ""


@register.simple_tag
def report_reason_options(form: ReportForm) -> SafeString:
    """«Пожаловаться»'s reasons, the one sent before chosen again (a refused report)."""
    chosen = form["reason"].value()
    return format_html_join(
        "",
        '<option value="{}" {}>{}</option>',
        (
            (value, "selected" if value == chosen else "", name)
            for value, name in form.fields["reason"].choices  # type: ignore[attr-defined]
        ),
    )


@register.simple_tag
def report_game_options(games: Iterable[ReportableGame]) -> SafeString:
    """«Пожаловаться»'s choice of game: the finished games the viewer shared with the player."""
    return format_html_join(
        "",
        '<option value="{}">#{} · {}</option>',
        ((game.pk, game.pk, _local(game.finished_at, "%d.%m.%Y")) for game in games),
    )


@register.simple_tag
def citable_afterword_options(afterwords: Iterable[CitableAfterword]) -> SafeString:
    """«Пожаловаться»'s optional afterword: its game and the start of its text."""
    return format_html_join(
        "",
        '<option value="{}">#{}: {}</option>',
        ((afterword.pk, afterword.game_id, _excerpt(afterword.text)) for afterword in afterwords),
    )


AFTERWORD_EXCERPT = 60


def _excerpt(text: str) -> str:
    # Truncator counts characters but for combining ones, so a text no longer than this in
    # code points is shown whole; most are, and Truncator costs ~50 µs a text.
    if len(text) <= AFTERWORD_EXCERPT:
        return text
    return Truncator(text).chars(AFTERWORD_EXCERPT)


@register.simple_tag
def queue_rows(rows: Iterable[QueueRow], nearest: int | None) -> SafeString:
    """The queue's reports: each a link to its desk with the reason and the accused; an open one
    with its countdown to the 4 hours, the nearest to breach marked, and who claimed it; an
    answered one with when. Built with escape() rather than a format_html per piece: a page of
    50 rows spent ~8 ms of CPU in those."""
    about = escape(text("на", "about"))
    claimed_by = escape(text("взял", "claimed by"))
    unclaimed = escape(text("никто не взял", "unclaimed"))
    nearest_mark = escape(text("ближе всех к сроку", "nearest to breach"))
    answered = escape(text("отвечено", "answered"))
    html = []
    for row in rows:
        report = row.report
        marks = " overdue" if row.overdue else " due-soon" if row.due_soon else ""
        if report.pk == nearest:
            marks += " nearest"
        url = escape(reverse("web:moderation-report", kwargs={"report_id": report.pk}))
        html.append(
            f'\n    <li class="queue-row{marks}" data-queue-report="{report.pk}">\n'
            f'<a href="{url}" class="queue-link">#{report.pk} · {escape(row.reason)} · {about} '
            f"{escape(report.accused)}</a>\n"
        )
        if report.status == report.Status.OPEN:
            claim = (
                f"{claimed_by} {escape(report.claimed_by)}"
                if report.claim_is_live  # type: ignore[attr-defined]
                else unclaimed
            )
            mark = (
                f'<strong class="nearest-mark">{nearest_mark}</strong>\n'
                if report.pk == nearest
                else ""
            )
            html.append(
                f'<span class="countdown" data-countdown data-seconds-left="{row.seconds_left}">'
                f'{row.seconds_left} s</span>\n{mark}<span class="claim">{claim}</span>\n</li>'
            )
        else:
            when = _local(report.resolved_at, "%d.%m.%Y %H:%M")
            html.append(f'<span class="muted">{answered} {when}</span>\n</li>')
    return mark_safe("".join(html))  # every value above escaped
