"""Who is in the club now: every request of a signed-in player marks them seen."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts import services


class LastSeenMiddleware:
    """After the view, so that a caller DRF authenticated by token counts too (DRF puts the
    user it found on the Django request); `User.last_seen_at` is written at most once per
    accounts.services.SEEN_RESOLUTION."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            services.mark_seen(user=user)
        return response
