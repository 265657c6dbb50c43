"""`{% tournament_turns %}`: the lobby's block of the tournament games waiting for the signed-in
player's move, and the way to the tournaments (a block of its own, so the lobby's template
gains one line)."""

from typing import Any

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("web/_tournament_turns.html", takes_context=True)
def tournament_turns(context: template.Context) -> dict[str, Any]:
    user = context["user"]
    return {
        "waiting": selectors.games_waiting_for(user=user) if user.is_authenticated else [],
        "now": context.get("now"),
        "user": user,
    }
