from collections.abc import Mapping

from django.http import HttpRequest

from web import club_selectors


def club(request: HttpRequest) -> Mapping[str, object]:
    """The header's counts: the badge's games waiting for the signed-in user's move and the
    bell's unread notifications (`games_waiting`, `notifications_unread`)."""
    if not request.user.is_authenticated or request.path.startswith(("/api/", "/admin/")):
        return {}
    return club_selectors.header_counts(user=request.user)
