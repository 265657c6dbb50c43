"""One error shape for the whole API: {"code": ..., "detail": ...} (CONTRACT.md §3)."""

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApiError(exceptions.APIException):
    """A service-level refusal with a machine-readable code and an HTTP status."""

    def __init__(self, code: str, detail: str, status_code: int = status.HTTP_400_BAD_REQUEST):
        super().__init__(detail=detail, code=code)
        self.status_code = status_code
        self.error_code = code


class ErrorSerializer(serializers.Serializer):
    """The error body, for OpenAPI: reference it in every view's error responses."""

    code = serializers.CharField(help_text="Machine-readable, e.g. `invalid`, `not_found`.")
    detail = serializers.CharField(help_text="Human-readable, in the request's language.")
    errors = serializers.JSONField(  # type: ignore[assignment]  # a field, not the property
        required=False, help_text="With code `invalid` only: the messages per field."
    )


def _code_for(exc: Exception) -> str:
    if isinstance(exc, ApiError):
        return exc.error_code
    if isinstance(exc, (Http404, exceptions.NotFound)):
        return "not_found"
    if isinstance(exc, (PermissionDenied, exceptions.PermissionDenied)):
        return "forbidden"
    if isinstance(exc, exceptions.ValidationError):
        return "invalid"
    if isinstance(exc, exceptions.ParseError):
        return "malformed_json"
    if isinstance(exc, exceptions.APIException):
        return str(exc.default_code)
    return "error"


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = exception_handler(exc, context)
    if response is None:
        return None
    body: dict[str, Any] = {"code": _code_for(exc)}
    if isinstance(exc, exceptions.ValidationError):
        body["detail"] = "Invalid input."
        body["errors"] = response.data
    else:
        data = response.data
        body["detail"] = str(data.get("detail", data)) if isinstance(data, dict) else str(data)
    response.data = body
    return response


def json_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """404 for URLs no view matches, in the API's error shape instead of an HTML page."""
    return JsonResponse({"code": "not_found", "detail": "Not found."}, status=404)


def json_server_error(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"code": "server_error", "detail": "Internal server error."}, status=500)
