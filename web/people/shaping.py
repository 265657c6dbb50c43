"""What the page of the people one follows shows: those in the club first, then the others,
each as `{% person %}` shows a player, with the tables where they wait for a game."""

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator

from accounts.models import User
from club.i18n import text
from games import selectors as game_selectors
from social import selectors as social_selectors
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
    others (a page may hold both groups, or one). The tables where they wait are read for the
    page's people only."""
    followed = social_selectors.following(user=user)
    followed.sort(key=lambda player: not player.online)  # stable: by name within each group
    shown = Paginator(followed, PEOPLE_PER_PAGE).get_page(page)
    waiting = game_selectors.waiting_tables_of(
        viewer=user, user_ids=[player.id for player in shown if not player.hidden]
    )
    rows = [
        FollowedRow(player=player, waiting_games=waiting.get(player.id, [])) for player in shown
    ]
    online = sum(player.online for player in followed)
    groups = [
        {
            "title": text("В клубе сейчас", "In the club now"),
            "count": online,
            "people": [row for row in rows if row.player.online],
        },
        {
            "title": text("Не в клубе", "Away"),
            "count": len(followed) - online,
            "people": [row for row in rows if not row.player.online],
        },
    ]
    return {
        "count": len(followed),
        "online": online,
        "page": shown,
        "groups": [group for group in groups if group["people"]],
    }
