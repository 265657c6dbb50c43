"""The pages' language: the signed-in user's choice, else the `language` cookie, else Russian.

The API keeps Accept-Language (LocaleMiddleware); people on the pages pick it with the switch.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

LANGUAGE_COOKIE = "language"
LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


def page_language(request: HttpRequest) -> str:
    user = request.user
    if user.is_authenticated and user.language in LANGUAGE_CODES:
        return user.language
    cookie = request.COOKIES.get(LANGUAGE_COOKIE, "")
    return cookie if cookie in LANGUAGE_CODES else settings.LANGUAGE_CODE


class PageLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            return self.get_response(request)
        language = page_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        return self.get_response(request)
