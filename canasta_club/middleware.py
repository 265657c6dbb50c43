"""Answers made for a signed-in caller are never stored by a shared cache."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers


class PrivateAnswersMiddleware:
    """`Cache-Control: private` and `Vary: Authorization, Cookie` on every answer to a caller
    with credentials (a token or a session): a game read carries that player's hand, and a
    proxy or CDN keying on the URL alone would hand it to the next caller."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # DRF puts the user its authentication found (a token's too) on the Django request.
        user = getattr(request, "user", None)
        if "HTTP_AUTHORIZATION" in request.META or (user is not None and user.is_authenticated):
            patch_cache_control(response, private=True)
            patch_vary_headers(response, ("Authorization", "Cookie"))
        return response
