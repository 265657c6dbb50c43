"""What the page of the people one follows shows: those in the club first, then the others,
each as `{% person %}` shows a player, with the tables where they wait for a game."""

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator

from accounts.models import User
from club.i18n import text
from games import selectors as game_selectors
from social.selectors import FollowedPlayer


@dataclass(frozen=True)
class FollowedRow:
    player: FollowedPlayer
    waiting_games: list[int]

    @property
    def shown(self) -> dict[str, Any]:
        """The player as `{% person %}` takes one."""
        return {"id": self.player.id, "display_name": self.player.name}


# People a page: those in the club come first, so the first page shows who is here.
PEOPLE_PER_PAGE = 100


def following_page(*, user: User, page: str | None) -> dict[str, Any]:
    """The people `user` follows, PEOPLE_PER_PAGE a page: those in the club now, then the
    others (a page may hold both groups, or one)."""
    rows = [
        FollowedRow(player=followed.player, waiting_games=followed.waiting_games)
        for followed in game_selectors.people_followed(user=user)
    ]
    rows.sort(key=lambda row: not row.player.online)  # stable: by name within each group
    shown = Paginator(rows, PEOPLE_PER_PAGE).get_page(page)
    online = sum(row.player.online for row in rows)
    groups = [
        {
            "title": text("В клубе сейчас", "In the club now"),
            "count": online,
            "people": [row for row in shown if row.player.online],
        },
        {
            "title": text("Не в клубе", "Away"),
            "count": len(rows) - online,
            "people": [row for row in shown if not row.player.online],
        },
    ]
    return {
        "count": len(rows),
        "page": shown,
        "groups": [group for group in groups if group["people"]],
    }
