from django.contrib.auth import logout, update_session_auth_hash
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.models import ApiToken, User
from accounts.serializers import (
    ApiTokenSerializer,
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
    VacationRequestSerializer,
    VacationSerializer,
    vacation_answer,
)
from canasta_club.api import request_user
from canasta_club.openapi import ERROR_400, ERROR_401, error_response
from canasta_club.throttling import ScopedRateThrottle
from games import time_off

ERROR_404 = error_response("No such user (or token).")
ERROR_429 = error_response("Too many attempts; retry later.")


def _device_of(request: Request, *, named: str = "") -> str:
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
        user, key = services.register_user(**serializer.validated_data, device=_device_of(request))
        body = {"user": MeSerializer(user).data, "token": key}
        return Response(body, status=status.HTTP_201_CREATED)


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
            device=_device_of(request, named=data.get("device", "")),
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
            device=_device_of(request),
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
        summary="Change own display name, email, language or time off",
        description="A new email needs the current `password`. `vacation` sets the "
        "correspondence time off: `auto`, `weekend_days`, `time_zone`. "
        "Errors: `wrong_password`, `email_taken`, `invalid`.",
        request=ProfileUpdateSerializer,
        responses={200: MeSerializer, 400: ERROR_400, 401: ERROR_401},
    )
    def patch(self, request: Request) -> Response:
        serializer = ProfileUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changes = dict(serializer.validated_data)
        vacation = changes.pop("vacation", None)
        user = services.update_profile(
            request=request._request, user=request_user(request), **changes
        )
        if vacation is not None:
            time_off.update_time_off(user=user, **vacation)
            user.refresh_from_db()
        return Response(MeSerializer(user).data)


class VacationView(APIView):
    @extend_schema(
        tags=["users"],
        summary="Start a vacation (correspondence games)",
        description="`days` whole days from `start` (now when left out), charged to this "
        "year's allowance. While it runs, your correspondence turns' clocks stop; each restarts "
        "when it ends with the time it had left. Other players see `away_until`. Errors: "
        "`vacation_exceeds_allowance` (400: more days than you have left), `invalid` (400: "
        "`days` below 1, `start` in the past or more than a year ahead), "
        "`already_on_vacation` (409: end the one you have first).",
        request=VacationRequestSerializer,
        responses={
            200: VacationSerializer,
            400: ERROR_400,
            401: ERROR_401,
            409: error_response("`already_on_vacation`."),
        },
        examples=[
            OpenApiExample("a week from now", value={"days": 7}, request_only=True),
            OpenApiExample(
                "booked ahead",
                value={"days": 3, "start": "2026-12-24T00:00:00+03:00"},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = VacationRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        vacation = time_off.start_vacation(user=request_user(request), **serializer.validated_data)
        return Response(vacation_answer(vacation))

    @extend_schema(
        tags=["users"],
        summary="End your vacation now",
        description="Ends the running vacation (or cancels a booked one): the hours not begun "
        "go back to your allowance and your turns' clocks run again with the time they had "
        "left. Errors: `not_on_vacation` (409).",
        request=None,
        responses={
            200: VacationSerializer,
            401: ERROR_401,
            409: error_response("`not_on_vacation`."),
        },
    )
    def delete(self, request: Request) -> Response:
        return Response(vacation_answer(time_off.end_vacation(user=request_user(request))))


class UserDetailView(APIView):
    @extend_schema(
        tags=["users"],
        summary="A player's card",
        responses={200: PublicUserSerializer, 401: ERROR_401, 404: ERROR_404},
    )
    def get(self, request: Request, pk: int) -> Response:
        user = get_object_or_404(User, pk=pk)
        return Response(PublicUserSerializer(user).data)
