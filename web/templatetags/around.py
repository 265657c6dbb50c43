"""Pieces the header, the lobby and the table include: the bell, the club's mood and a finished
game's afterwords. Each calls its selector, so the pages that include them stay as they are.
"""

from typing import Any

from django import template

from moderation import selectors as moderation_selectors
from moderation.permissions import MODERATE_PERMISSION
from web.table.afterwords import afterwords_panel

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
        "panel": afterwords_panel(game=game, viewer=request.user),
        "game": game,
        "request": request,
        "messages": context.get("messages"),
    }
