"""The pages' language: the signed-in user's choice, else the `language` cookie, else Russian.

Only for this app's pages (the web namespace and the emailed reset link's pages): the API, the
admin and the browsable API keep Accept-Language (LocaleMiddleware); people on the pages pick it
with the switch.
"""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

LANGUAGE_COOKIE = "language"
LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}
# The emailed password reset link's pages: the club's pages outside the namespace (web.urls).
_RESET_LINK_PAGES = {"password-reset-page", "password-reset-complete"}


def page_language(request: HttpRequest) -> str:
    user = request.user
    if user.is_authenticated and user.language in LANGUAGE_CODES:
        return user.language
    cookie = request.COOKIES.get(LANGUAGE_COOKIE, "")
    return cookie if cookie in LANGUAGE_CODES else settings.LANGUAGE_CODE


def activate_page_language(request: HttpRequest) -> None:
    language = page_language(request)
    translation.activate(language)
    request.LANGUAGE_CODE = language


class PageLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: Callable[..., Any], args: Any, kwargs: Any
    ) -> None:
        match = request.resolver_match
        if match is not None and (match.namespace == "web" or match.url_name in _RESET_LINK_PAGES):
            activate_page_language(request)
