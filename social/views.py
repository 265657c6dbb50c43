"""Following and blocking players (CONTRACT.md §8): thin, the work is in social.services."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from accounts.models import User
from club.openapi import ERROR_400, ERROR_401, error_response
from social import selectors, services
from social.serializers import PlayerNameSerializer, player_name

ERROR_404 = error_response("No such player (`not_found`).")


def _changed(player_id: int, created: bool) -> Response:
    player = User.objects.get(pk=player_id)
    return Response(
        player_name(player), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
    )


class FollowView(APIView):
    @extend_schema(
        tags=["people"],
        summary="Follow a player",
        description="They appear in `GET /api/me/following/` (online now, waiting for a game) "
        "and in the lobby's form to invite them. 201 when new, 200 when you already followed "
        "them. Errors: `cannot_follow_yourself`, `player_is_bot` (400), `not_found` (404), "
        "`player_blocked` (409: you blocked them; unblock first), `too_many_follows` (409: "
        f"{services.MAX_FOLLOWING} at most).",
        request=None,
        responses={
            200: PlayerNameSerializer,
            201: PlayerNameSerializer,
            400: ERROR_400,
            401: ERROR_401,
            404: ERROR_404,
            409: error_response("`player_blocked`, `too_many_follows`."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        created = services.follow(user=request_user(request), player_id=pk)
        return _changed(pk, created)

    @extend_schema(
        tags=["people"],
        summary="Stop following a player",
        description="204 whether or not you followed them.",
        request=None,
        responses={204: None, 401: ERROR_401, 404: ERROR_404},
    )
    def delete(self, request: Request, pk: int) -> Response:
        services.unfollow(user=request_user(request), player_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BlockView(APIView):
    @extend_schema(
        tags=["people"],
        summary="Block a player (privately)",
        description="Nobody is told. From now on the two of you never share a table: neither "
        "may sit at a table where the other sits or is invited (403 `blocked`), nor invite the "
        "other (403 `blocked`), nor write the other afterwords (403 `blocked`; the other's "
        "table afterwords are not shown to you); neither sees the other's tables in the lobby; "
        "they never see you online or waiting for a game. You stop following them. 201 when "
        "new, 200 when already blocked. Errors: `cannot_block_yourself`, `player_is_bot` "
        f"(400), `not_found` (404), `too_many_blocks` (409: {services.MAX_BLOCKED} at most).",
        request=None,
        responses={
            200: PlayerNameSerializer,
            201: PlayerNameSerializer,
            400: ERROR_400,
            401: ERROR_401,
            404: ERROR_404,
            409: error_response("`too_many_blocks`."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        created = services.block(user=request_user(request), player_id=pk)
        return _changed(pk, created)

    @extend_schema(
        tags=["people"],
        summary="Unblock a player",
        description="204 whether or not you had blocked them.",
        request=None,
        responses={204: None, 401: ERROR_401, 404: ERROR_404},
    )
    def delete(self, request: Request, pk: int) -> Response:
        services.unblock(user=request_user(request), player_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BlockedView(APIView):
    @extend_schema(
        tags=["people"],
        summary="The players you blocked",
        description="By name; only you see this list.",
        responses={200: PlayerNameSerializer(many=True), 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        blocked = selectors.blocked_by(user=request_user(request))
        return Response([player_name(player) for player in blocked])
