"""The club's middleware: answers made for a signed-in caller are never stored by a shared
cache; what does nothing for a program's API request is skipped for it; the Content-Security-
Policy of an everyday answer built once."""

from collections.abc import Callable
from typing import Any

from csp import constants as csp_constants
from csp import middleware as csp_middleware
from csp import utils as csp_utils
from django.conf import settings
from django.contrib.auth import middleware as auth_middleware
from django.contrib.messages import middleware as messages_middleware
from django.http import HttpRequest, HttpResponse
from django.middleware import csrf
from django.utils.cache import patch_cache_control, patch_vary_headers

from web import middleware as web_middleware


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


def program_request(request: HttpRequest) -> bool:
    """An API request made with a token and no cookie, as programs play: no session to read, no
    CSRF cookie, no page language nor page messages, and the user is the token's (DRF's)."""
    return (
        request.path_info.startswith("/api/")
        and "HTTP_COOKIE" not in request.META
        and request.META.get("HTTP_AUTHORIZATION", "")[:6].lower() == "token "
    )


def pages_only(base: type[Any]) -> type[Any]:
    """`base`, a middleware that does nothing for a program's request, skipped for them (its
    request, view and response hooks): ~0.1 ms of CPU a request for the four (bench/trace.py)."""

    class Middleware(base):
        def __call__(self, request: HttpRequest) -> Any:
            if program_request(request):
                return self.get_response(request)
            return super().__call__(request)

    if hasattr(base, "process_view"):

        def process_view(self: Any, request: HttpRequest, *args: Any) -> Any:
            return None if program_request(request) else base.process_view(self, request, *args)

        Middleware.process_view = process_view
    Middleware.__name__ = Middleware.__qualname__ = base.__name__
    Middleware.__doc__ = f"{base.__module__}.{base.__name__}, skipped for program requests."
    return Middleware


CsrfViewMiddleware = pages_only(csrf.CsrfViewMiddleware)
AuthenticationMiddleware = pages_only(auth_middleware.AuthenticationMiddleware)
MessageMiddleware = pages_only(messages_middleware.MessageMiddleware)
PageLanguageMiddleware = pages_only(web_middleware.PageLanguageMiddleware)


class ContentSecurityPolicyMiddleware(csp_middleware.CSPMiddleware):
    """django-csp's, with the policy of an answer that changes nothing of it (no view's update,
    no nonce) built once per process instead of every answer (~0.1 ms of CPU)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        super().__init__(get_response)
        self.everyday_policy = csp_utils.build_policy()
        self.plain = not getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None) and not (
            settings.CONTENT_SECURITY_POLICY or {}
        ).get("EXCLUDE_URL_PREFIXES")

    def process_response(self, request: HttpRequest, response: Any) -> Any:
        changed = any(
            getattr(response, name, None) is not None
            for name in ("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt")
        )
        if not self.plain or changed or getattr(request, "_csp_nonce", None) is not None:
            return super().process_response(request, response)
        response.headers.setdefault(csp_constants.HEADER, self.everyday_policy)
        # As django-csp: a nonce asked for after the header was written is an error.
        nonce_too_late = csp_middleware.CheckableLazyObject(self._csp_nonce_post_response)
        setattr(request, "csp_nonce", nonce_too_late)  # noqa: B010  (django-stubs lack it)
        return response
