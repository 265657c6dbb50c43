from django.http import HttpRequest

from games import selectors as game_selectors


def club(request: HttpRequest) -> dict[str, object]:
    """The header's badge: how many games wait for the signed-in user's move."""
    if not request.user.is_authenticated or request.path.startswith(("/api/", "/admin/")):
        return {}
    return {"games_waiting": game_selectors.games_waiting_count(user=request.user)}
