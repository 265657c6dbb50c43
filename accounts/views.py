from django.contrib.auth import logout, update_session_auth_hash
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.authentication import request_user
from accounts.models import ApiToken
from accounts.serializers import (
    ApiTokenSerializer,
    PasswordChangeSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetSerializer,
    TokenRequestSerializer,
    TokenSerializer,
)
from club.openapi import ERROR_400, ERROR_401, error_response
from club.throttling import ScopedRateThrottle

ERROR_404 = error_response("No such user (or token).")
ERROR_429 = error_response("Too many attempts; retry later.")


def device_of(request: Request, *, named: str = "") -> str:
    return named or request.headers.get("User-Agent", "")


class TokensView(APIView):
    @extend_schema(
        tags=["auth"],
        summary="Your API tokens, one per device",
        description="Newest first; `current` is the one this request carries.",
        responses={200: ApiTokenSerializer(many=True), 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        current = request.auth.pk if isinstance(request.auth, ApiToken) else None
        tokens = selectors.tokens_of(user=request_user(request))
        return Response(ApiTokenSerializer(tokens, many=True, context={"current": current}).data)


class TokenDetailView(APIView):
    @extend_schema(
        tags=["auth"],
        summary="Revoke one of your API tokens",
        description="That device is logged out at once. Errors: `not_found`.",
        responses={204: None, 401: ERROR_401, 404: ERROR_404},
    )
    def delete(self, request: Request, pk: int) -> Response:
        services.revoke_token(user=request_user(request), token_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AnonymousAuthView(APIView):
    """Endpoints for people who are not logged in: no authentication, hence no CSRF check."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (ScopedRateThrottle,)
    throttle_scope = "auth"


class TokenView(AnonymousAuthView):
    @extend_schema(
        tags=["auth"],
        summary="Get an API token for this device",
        description="A new token at each log-in, one per device (`device` names it in your list, "
        "else the User-Agent does); it works 30 days, until you revoke it, log out with it, or "
        "change the password. Errors: `invalid_credentials`, `invalid`, `throttled` (429: too "
        "many failed log-ins for this account or from this address).",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, 400: ERROR_400, 429: ERROR_429},
    )
    def post(self, request: Request) -> Response:
        serializer = TokenRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        key = services.obtain_token(
            request=request._request,
            username=data["username"],
            password=data["password"],
            device=device_of(request, named=data.get("device", "")),
        )
        return Response({"token": key})


class LogoutView(APIView):
    @extend_schema(
        tags=["auth"],
        summary="Log out",
        description="Revokes the API token this request carries (your other devices stay "
        "logged in) and ends the browser session.",
        request=None,
        responses={204: None, 401: ERROR_401},
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, ApiToken):
            services.revoke_token(user=request_user(request), token_id=request.auth.pk)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeView(APIView):
    throttle_classes = (ScopedRateThrottle,)
    throttle_scope = "auth"

    @extend_schema(
        tags=["auth"],
        summary="Change the password",
        description="Returns a new API token; every other token stops working. "
        "Errors: `wrong_password`, `weak_password`, `invalid`.",
        request=PasswordChangeSerializer,
        responses={200: TokenSerializer, 400: ERROR_400, 401: ERROR_401, 429: ERROR_429},
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request_user(request)
        key = services.change_password(
            request=request._request,
            user=user,
            **serializer.validated_data,
            device=device_of(request),
        )
        update_session_auth_hash(request._request, user)
        return Response({"token": key})


class PasswordResetView(AnonymousAuthView):
    throttle_scope = "password_reset"

    @extend_schema(
        tags=["auth"],
        summary="Email a password reset link",
        description="Always 202, whether or not an account has this email. The email links "
        "to a web page (`/password-reset/{uid}/{token}/`) where a person sets the new password, "
        "and gives the `uid` and `token` for the confirm endpoint below to programs.",
        request=PasswordResetSerializer,
        responses={202: None, 400: ERROR_400, 429: ERROR_429},
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.request_password_reset(**serializer.validated_data)
        return Response(status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(AnonymousAuthView):
    @extend_schema(
        tags=["auth"],
        summary="Set a new password from the emailed link",
        description="The API token is deleted; get a new one with the new password. "
        "Errors: `invalid_reset_link`, `weak_password`, `invalid`.",
        request=PasswordResetConfirmSerializer,
        responses={204: None, 400: ERROR_400, 429: ERROR_429},
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.reset_password(**serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)
