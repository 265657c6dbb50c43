"""`{% person who %}`: a person's name as a link to their card (/users/{id}/), the one way every
page shows a name (seats, lobby rows, the move log, replays, cards, afterwords).

`who` is a User, or a player as the games selectors shape them (`{"user": {...}}`, or the
`user` dict itself: id, display_name, username, is_bot). Bots have cards too (their games, no
«Пожаловаться»), so every name links. Rendered by web/_person.html.
"""

from collections.abc import Mapping
from typing import Any

from django import template

from accounts.models import User

register = template.Library()


def person_of(who: Any) -> dict[str, Any] | None:
    """The id, the name shown and whether it is a bot, of a User or a selector's player."""
    if isinstance(who, User):
        return {"id": who.pk, "name": str(who), "is_bot": who.is_bot}
    if isinstance(who, Mapping):
        user = who.get("user", who)
        if user and user.get("id") is not None:
            return {
                "id": user["id"],
                "name": user.get("display_name") or user.get("username") or "",
                "is_bot": bool(user.get("is_bot")),
            }
    return None


@register.inclusion_tag("web/_person.html")
def person(who: Any) -> dict[str, Any]:
    """A name linking to the card; nothing when `who` is nobody (a free seat)."""
    return {"person": person_of(who)}
