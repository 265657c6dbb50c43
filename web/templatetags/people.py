"""`{% person who %}`: a person's name as a link to their card (/users/{id}/), the one way every
page shows a name (seats, lobby rows, the move log, replays, cards, afterwords).

`who` is a User, or a player as the games selectors shape them (`{"user": {...}}`, or the
`user` dict itself: id, display_name, username, is_bot, bot_level; or a leaderboard's: id,
name). Bots have cards too (their games, no «Пожаловаться»), so every name links; a bot is
named in the page's language.

`{% person who with_rating=True %}` adds the player's rating beside the name, from the
`standing` the page put on the player (web.shared.attach_standings: one query for the page's
names, none per name); nothing for a bot or a player without one. `{% rating who %}` is that
rating alone, where a narrow place shows it apart from the name (a seat at the table).
"""

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.urls import get_script_prefix, reverse
from django.utils.html import format_html

from accounts.models import User
from club.i18n import text
from ratings.selectors import Standing
from web.shared import shown_name

register = template.Library()


def person_of(who: Any) -> dict[str, Any] | None:
    """The id, the name shown and whether it is a bot, of a User or a selector's player."""
    if isinstance(who, User):
        name = shown_name(
            display_name=who.display_name, username=who.username, bot_level=who.bot_level
        )
        return {"id": who.pk, "name": name, "is_bot": who.is_bot}
    if isinstance(who, Mapping):
        user = who.get("user", who)
        if user and user.get("id") is not None:
            name = shown_name(
                display_name=user.get("display_name") or user.get("name") or "",
                username=user.get("username") or "",
                bot_level=user.get("bot_level") or "",
            )
            return {"id": user["id"], "name": name, "is_bot": bool(user.get("is_bot"))}
    return None


# A card's address depends only on the script prefix and the id: reversed once for each (a table
# shows a dozen names, a lobby a hundred).
@lru_cache(maxsize=4096)
def _card_url(_script_prefix: str, user_id: int) -> str:
    return reverse("web:player", kwargs={"user_id": user_id})


@register.simple_tag
def person(who: Any, with_rating: bool = False) -> str:
    """A name linking to the card; nothing when `who` is nobody (a free seat). A tag that
    formats the link rather than an included template: a table shows a dozen names."""
    shown = person_of(who)
    if shown is None:
        return ""
    link = format_html(
        '<a class="person" href="{}" data-person="{}">{}</a>',
        _card_url(get_script_prefix(), shown["id"]),
        shown["id"],
        shown["name"],
    )
    badge = rating(who) if with_rating else ""
    return format_html("{} {}", link, badge) if badge else link


@register.simple_tag
def rating(who: Any) -> str:
    """The player's rating (its `standing`) as the pages show it beside a name: «1523», «1500?»
    while provisional; nothing for a bot or a player the page gave no standing."""
    standing: Standing | None = who.get("standing") if isinstance(who, Mapping) else None
    if standing is None:
        return ""
    if standing.provisional:
        return format_html(
            '<span class="rating rating--provisional" data-rating="{}">'
            '<span class="sr-only">{} </span>{}?<span class="sr-only"> ({})</span></span>',
            standing.rating,
            text("рейтинг", "rating"),
            standing.rating,
            text("предварительный", "provisional"),
        )
    return format_html(
        '<span class="rating" data-rating="{}"><span class="sr-only">{} </span>{}</span>',
        standing.rating,
        text("рейтинг", "rating"),
        standing.rating,
    )


@register.filter
def name(who: Any) -> str:
    """`{{ player|name }}`: the name alone, as `{% person %}` shows it (a bot's in the page's
    language), where no link is wanted (a card's own heading)."""
    shown = person_of(who)
    return "" if shown is None else str(shown["name"])
