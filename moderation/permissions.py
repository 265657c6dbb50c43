from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

MODERATE_PERMISSION = "moderation.change_report"
REPORTER_IDENTITY_PERMISSION = "moderation.view_reporter_identity"


class IsModerator(BasePermission):
    """Members of the Moderators group (and superusers): they may change reports."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(request.user.is_authenticated and request.user.has_perm(MODERATE_PERMISSION))


class CanSeeReporterIdentity(BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(
            request.user.is_authenticated and request.user.has_perm(REPORTER_IDENTITY_PERMISSION)
        )
