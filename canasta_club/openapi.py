"""OpenAPI pieces shared by the apps' views (kept out of canasta_club.api, which DRF imports
while its settings load, before the error serializer can be)."""

from drf_spectacular.utils import OpenApiResponse

from canasta_club.errors import ErrorSerializer


def error_response(description: str) -> OpenApiResponse:
    """An error response for `extend_schema(responses=...)`: the `{"code", "detail"}` body."""
    return OpenApiResponse(ErrorSerializer, description=description)


ERROR_400 = error_response("Invalid input (see `code`).")
ERROR_401 = error_response("Not authenticated.")
