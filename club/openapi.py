"""OpenAPI pieces shared by the apps' views (kept out of club.api, which DRF imports
while its settings load, before the error serializer can be)."""

from drf_spectacular.utils import OpenApiResponse

from club.errors import ErrorSerializer


def error_response(description: str) -> OpenApiResponse:
    """An error response for `extend_schema(responses=...)`: the `{"code", "detail"}` body."""
    return OpenApiResponse(ErrorSerializer, description=description)


ERROR_400 = error_response("Invalid input (see `code`).")
ERROR_401 = error_response("Not authenticated.")


def document_request_too_large(result: dict, **_: object) -> dict:
    """Postprocessing hook: every operation with a body may answer 413 `request_too_large` (a
    body past the upload limit or a list over MAX_JSON_LIST_LENGTH, club.api.JSONParser),
    before its own serializer sees the body."""
    too_large = {
        "description": "The body is too large, or holds a list too long (`request_too_large`).",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                operation.setdefault("responses", {}).setdefault("413", too_large)
    return result
