from collections.abc import Mapping

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games import selectors as game_selectors
from notifications import selectors as notification_selectors


def club(request: HttpRequest) -> Mapping[str, object]:
    """The header's counts: the badge's games waiting for the signed-in user's move and the
    bell's unread notifications (`games_waiting`, `notifications_unread`), each read only when
    the page shows it: a table's fragment, fetched after every move, shows neither (the table
    page keeps its badge by the game's turn, web/static/web/table.js)."""
    if not request.user.is_authenticated or request.path.startswith(("/api/", "/admin/")):
        return {}
    user = request.user
    return {
        "games_waiting": SimpleLazyObject(lambda: game_selectors.games_waiting(user=user).count()),
        "notifications_unread": SimpleLazyObject(
            lambda: notification_selectors.unread_count(user=user)
        ),
    }
