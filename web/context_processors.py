from collections.abc import Mapping

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.models import DEFAULT_TIME_ZONE
from games import selectors as game_selectors
from notifications import selectors as notification_selectors


def club(request: HttpRequest) -> Mapping[str, object]:
    """The viewer's `time_zone` (Moscow time for a visitor: templates never read
    `user.time_zone`, which a visitor has not), and the header's counts: the badge's games
    waiting for the signed-in user's move and the bell's unread notifications
    (`games_waiting`, `notifications_unread`), each read only when the page shows it: a table's
    fragment, fetched after every move, shows neither (the table page keeps its badge by the
    game's turn, web/static/web/table.js)."""
    if not request.user.is_authenticated:
        return {"time_zone": DEFAULT_TIME_ZONE}
    user = request.user
    if request.path.startswith(("/api/", "/admin/")):
        return {"time_zone": user.time_zone}
    return {
        "time_zone": user.time_zone,
        "games_waiting": SimpleLazyObject(lambda: game_selectors.games_waiting(user=user).count()),
        "notifications_unread": SimpleLazyObject(
            lambda: notification_selectors.unread_count(user=user)
        ),
    }
