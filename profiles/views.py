"""The players' profile endpoints: sign-up's answer, your own profile and vacation, a player's
card. Composed here from accounts, games and notifications (profiles.serializers)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.authentication import request_user
from accounts.models import User
from accounts.serializers import RegisterSerializer
from accounts.views import ERROR_404, ERROR_429, AnonymousAuthView, device_of
from club.openapi import ERROR_400, ERROR_401, error_response
from games.services import time_off
from profiles.serializers import (
    FollowedPlayerSerializer,
    MeSerializer,
    ProfileUpdateSerializer,
    PublicUserSerializer,
    RegisteredSerializer,
    VacationRequestSerializer,
    VacationSerializer,
    following_answer,
    vacation_answer,
)


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
        user, key = services.register_user(**serializer.validated_data, device=device_of(request))
        body = {"user": MeSerializer(user).data, "token": key}
        return Response(body, status=status.HTTP_201_CREATED)


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
        description="`days` whole days from `start` (now when left out), each hour charged "
        "to the allowance of the year it falls in (a vacation across 31 December spends some "
        "of both years' days). While it runs, your correspondence turns' clocks stop; each "
        "restarts when it ends with the time it had left. Other players see `away_until`. "
        "Errors: `vacation_exceeds_allowance` (400: more days than a year has left), "
        "`vacation_too_far_ahead` (400: it would end more than 365 days from now), `invalid` "
        "(400: `days` below 1, `start` in the past), `already_on_vacation` (409: end the one "
        "you have first).",
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
        return Response(PublicUserSerializer(user, context={"viewer": request_user(request)}).data)


class FollowingView(APIView):
    @extend_schema(
        tags=["people"],
        summary="The players you follow",
        description="By name, the whole list (at most 1000): who is in the club now "
        "(`online`) and at which public tables each one waits for players (`waiting_games`). A "
        "player who blocked you shows offline and waiting nowhere.",
        responses={200: FollowedPlayerSerializer(many=True), 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        return Response(following_answer(user=request_user(request)))
