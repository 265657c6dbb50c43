"""The club's own errors (ClubError), and one error shape for the whole API:
{"code": ..., "detail": ...} (CONTRACT.md §3)."""

import math
from typing import Any

from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from club.i18n import text


class ClubError(Exception):
    """A refusal by the club's own rules: `code` for programs, `message` for people.

    Services raise it (through a subclass naming its kind) and know nothing of HTTP: the API's
    exception handler maps the kind to a status, a web page shows `message`. `message` is in
    the current language (write it with club.i18n.text); `extra` holds more fields the
    API answer carries, e.g. the current `version` of a stale move.
    """

    def __init__(self, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


class Invalid(ClubError):
    """The request breaks a rule of its own content (a weak password, bad table rules)."""


class Forbidden(ClubError):
    """The caller may not do this (not seated, suspended, muted)."""


class NotFound(ClubError):
    """No such thing, or not one the caller may know of."""


class Conflict(ClubError):
    """The thing is not in a state that allows it (already started, taken, resolved)."""


class KeyReused(ClubError):
    """An Idempotency-Key sent again with another request."""


class LimitReached(ClubError):
    """Too many of these in a while (reports a day)."""


# The API's status of each kind of ClubError.
_STATUS_OF_KIND: dict[type[ClubError], int] = {
    Invalid: status.HTTP_400_BAD_REQUEST,
    Forbidden: status.HTTP_403_FORBIDDEN,
    NotFound: status.HTTP_404_NOT_FOUND,
    Conflict: status.HTTP_409_CONFLICT,
    KeyReused: status.HTTP_422_UNPROCESSABLE_ENTITY,
    LimitReached: status.HTTP_429_TOO_MANY_REQUESTS,
}


def status_of(error: ClubError) -> int:
    return next(_STATUS_OF_KIND[kind] for kind in type(error).__mro__ if kind in _STATUS_OF_KIND)


def error_body(error: ClubError) -> dict[str, Any]:
    """The API's error shape of a ClubError (also what an Idempotency-Key replay stores)."""
    return {"code": error.code, "detail": error.message, **error.extra}


class ErrorSerializer(serializers.Serializer):
    """The error body, for OpenAPI: reference it in every view's error responses."""

    code = serializers.CharField(help_text="Machine-readable, e.g. `invalid`, `not_found`.")
    detail = serializers.CharField(help_text="Human-readable, in the request's language.")
    errors = serializers.JSONField(  # type: ignore[assignment]  # a field, not the property
        required=False, help_text="With code `invalid` only: the messages per field."
    )


# The details of DRF's and Django's own refusals, in both languages (their English defaults and
# messages such as "No User matches the given query." never reach the caller).
_DETAILS: dict[str, tuple[str, str]] = {
    "not_found": ("Не найдено.", "Not found."),
    "forbidden": ("Недостаточно прав для этого действия.", "You may not do this."),
    "csrf_failed": (
        "Проверка CSRF не пройдена: для входа по сессии нужен CSRF-токен.",
        "CSRF check failed: a session log-in needs the CSRF token.",
    ),
    "not_authenticated": (
        "Нужна авторизация: заголовок Authorization: Token <ключ>.",
        "Authentication required: the Authorization: Token <key> header.",
    ),
    "authentication_failed": (
        "Неверный, отозванный или просроченный токен.",
        "Invalid, revoked or expired token.",
    ),
    "invalid": ("Некорректные данные: см. errors.", "Invalid input: see errors."),
    "malformed_json": ("Тело запроса — некорректный JSON.", "Malformed JSON body."),
    "not_acceptable": (
        "Ответ бывает только в JSON (Accept: application/json).",
        "Responses are JSON only (Accept: application/json).",
    ),
    "bad_request": ("Некорректный запрос.", "Bad request."),
    "request_too_large": ("Слишком большой запрос.", "The request is too large."),
    "server_error": ("Внутренняя ошибка сервера.", "Internal server error."),
}


def _text_of(code: str) -> str:
    ru, en = _DETAILS[code]
    return text(ru, en)


def _is_csrf_failure(exc: Exception) -> bool:
    # DRF's SessionAuthentication reports it as PermissionDenied("CSRF Failed: ...").
    return isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith(
        "CSRF Failed"
    )


def _code_for(exc: Exception) -> str:
    if isinstance(exc, (Http404, exceptions.NotFound)):
        return "not_found"
    if _is_csrf_failure(exc):
        return "csrf_failed"
    if isinstance(exc, (PermissionDenied, exceptions.PermissionDenied)):
        return "forbidden"
    if isinstance(exc, exceptions.ValidationError):
        return "invalid"
    if isinstance(exc, exceptions.ParseError):
        return "malformed_json"
    if isinstance(exc, exceptions.APIException):
        code = str(exc.default_code)
        return "server_error" if code == "error" else code
    return "server_error"


def _detail_for(exc: Exception, code: str, context: dict[str, Any]) -> str:
    """The caller's language: the messages of DRF's and Django's refusals are ours."""
    if isinstance(exc, exceptions.Throttled):
        wait: float | None = getattr(exc, "wait", None)  # the stubs lack it
        if wait is None:
            return text("Слишком много запросов.", "Too many requests.")
        seconds = max(math.ceil(wait), 1)
        return text(
            f"Слишком много запросов; повторите через {seconds} с.",
            f"Too many requests; retry in {seconds} s.",
        )
    if isinstance(exc, exceptions.MethodNotAllowed):
        method = context["request"].method
        return text(
            f"Метод {method} здесь не поддерживается.", f"Method {method} is not allowed here."
        )
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return text(
            "Тело запроса принимается только в JSON (Content-Type: application/json).",
            "The request body must be JSON (Content-Type: application/json).",
        )
    if (
        isinstance(exc, exceptions.APIException)
        and not isinstance(exc, exceptions.ValidationError)
        and code != "csrf_failed"
        and str(exc.detail) != str(exc.default_detail)
    ):
        # Written by our code (the JSON parser, permission messages): both languages.
        return str(exc.detail)
    if code in _DETAILS:
        return _text_of(code)
    return str(exc.detail) if isinstance(exc, exceptions.APIException) else _text_of("server_error")


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ClubError):
        set_rollback()
        return Response(error_body(exc), status=status_of(exc))
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = _code_for(exc)
    body: dict[str, Any] = {"code": code, "detail": _detail_for(exc, code, context)}
    if isinstance(exc, exceptions.ValidationError):
        body["errors"] = response.data
    response.data = body
    return response


def _json_error(code: str, status_code: int) -> JsonResponse:
    # UTF-8 like DRF's responses, not \u escapes.
    return JsonResponse(
        {"code": code, "detail": _text_of(code)},
        status=status_code,
        json_dumps_params={"ensure_ascii": False},
    )


def json_bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """400 outside DRF's views (a bad Host header, a form body over the size limit, ...)."""
    if isinstance(exception, (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)):
        return _json_error("request_too_large", 413)
    return _json_error("bad_request", 400)


def json_forbidden(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _json_error("forbidden", 403)


def json_csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    """CSRF_FAILURE_VIEW: a form post (session log-in, admin) without a valid CSRF token."""
    return _json_error("csrf_failed", 403)


def json_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """404 for URLs no view matches, in the API's error shape instead of an HTML page."""
    return _json_error("not_found", 404)


def json_server_error(request: HttpRequest) -> JsonResponse:
    return _json_error("server_error", 500)
