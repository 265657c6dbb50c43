from django.contrib.auth import logout, update_session_auth_hash
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.models import User
from accounts.serializers import (
    MeSerializer,
    PasswordChangeSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetSerializer,
    ProfileUpdateSerializer,
    PublicUserSerializer,
    RegisteredSerializer,
    RegisterSerializer,
    TokenRequestSerializer,
    TokenSerializer,
)
from canasta_club.api import request_user
from canasta_club.openapi import ERROR_400, ERROR_401, error_response
from canasta_club.throttling import ScopedRateThrottle

ERROR_404 = error_response("No such user.")
ERROR_429 = error_response("Too many attempts; retry later.")


class AnonymousAuthView(APIView):
    """Endpoints for people who are not logged in: no authentication, hence no CSRF check."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (ScopedRateThrottle,)
    throttle_scope = "auth"


class RegisterView(AnonymousAuthView):
    # Sign-up tells whether an email has an account (`email_taken`: one account per email, and
    # the person must learn to reset instead); this scope keeps that from being a fast oracle.
    throttle_scope = "register"

    @extend_schema(
        tags=["auth"],
        summary="Sign up",
        description="Errors: `username_taken`, `email_taken` (one account per email, in any "
        "case), `weak_password` (Django's password validators), `invalid`.",
        request=RegisterSerializer,
        responses={201: RegisteredSerializer, 400: ERROR_400, 429: ERROR_429},
    )
    def post(self, request: Request) -> Response:
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, token = services.register_user(**serializer.validated_data)
        body = {"user": MeSerializer(user).data, "token": token.key}
        return Response(body, status=status.HTTP_201_CREATED)


class TokenView(AnonymousAuthView):
    @extend_schema(
        tags=["auth"],
        summary="Get the API token",
        description="The same token until log-out or a password change. "
        "Errors: `invalid_credentials`, `invalid`.",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, 400: ERROR_400, 429: ERROR_429},
    )
    def post(self, request: Request) -> Response:
        serializer = TokenRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = services.obtain_token(request=request._request, **serializer.validated_data)
        return Response({"token": token.key})


class LogoutView(APIView):
    @extend_schema(
        tags=["auth"],
        summary="Log out",
        description="Deletes the API token (every client using it is logged out) "
        "and ends the browser session.",
        request=None,
        responses={204: None, 401: ERROR_401},
    )
    def post(self, request: Request) -> Response:
        services.revoke_token(user=request_user(request))
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeView(APIView):
    throttle_classes = (ScopedRateThrottle,)
    throttle_scope = "auth"

    @extend_schema(
        tags=["auth"],
        summary="Change the password",
        description="Returns a new API token; the old one stops working. "
        "Errors: `wrong_password`, `weak_password`, `invalid`.",
        request=PasswordChangeSerializer,
        responses={200: TokenSerializer, 400: ERROR_400, 401: ERROR_401, 429: ERROR_429},
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request_user(request)
        token = services.change_password(
            request=request._request, user=user, **serializer.validated_data
        )
        update_session_auth_hash(request._request, user)
        return Response({"token": token.key})


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


class MeView(APIView):
    @extend_schema(
        tags=["users"],
        summary="Own profile",
        responses={200: MeSerializer, 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request_user(request)).data)

    @extend_schema(
        tags=["users"],
        summary="Change own display name, email or language",
        description="A new email needs the current `password`. "
        "Errors: `wrong_password`, `email_taken`, `invalid`.",
        request=ProfileUpdateSerializer,
        responses={200: MeSerializer, 400: ERROR_400, 401: ERROR_401},
    )
    def patch(self, request: Request) -> Response:
        serializer = ProfileUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.update_profile(
            request=request._request, user=request_user(request), **serializer.validated_data
        )
        return Response(MeSerializer(user).data)


class UserDetailView(APIView):
    @extend_schema(
        tags=["users"],
        summary="A player's card",
        responses={200: PublicUserSerializer, 401: ERROR_401, 404: ERROR_404},
    )
    def get(self, request: Request, pk: int) -> Response:
        user = get_object_or_404(User, pk=pk)
        return Response(PublicUserSerializer(user).data)
