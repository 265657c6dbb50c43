"""`{% rating_changes detail %}`: a finished rated game's move of each player's rating, for its
result (the table page places it beside `[data-result]`); nothing for a casual game or one not
over. `detail` is the game as the games selectors shape it (its players' `rating_change`)."""

from typing import Any

from django import template

from ratings.pools import pool_title

register = template.Library()


@register.inclusion_tag("web/_rating_changes.html")
def rating_changes(detail: dict[str, Any], viewer_seat: int | None = None) -> dict[str, Any]:
    moved = [player for player in detail["players"] if player.get("rating_change") is not None]
    if not detail.get("rated") or not moved:
        return {"rows": []}
    # The viewer's own first, then by seat.
    moved.sort(key=lambda player: (player["seat"] != viewer_seat, player["seat"]))
    return {
        "rows": [
            {
                "player": player,
                "change": player["rating_change"],
                "me": player["seat"] == viewer_seat,
            }
            for player in moved
        ],
        "pool": detail["pool"],
        "pool_title": pool_title(detail["pool"]),
    }
