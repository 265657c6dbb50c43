"""The ratings API (CONTRACT.md §6): a pool's leaderboard and a player's history in a pool."""

from dataclasses import asdict
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from club import clock
from club.api import Pagination
from club.openapi import ERROR_400, ERROR_401, error_response
from ratings import pools, selectors
from ratings.models import Rating
from ratings.serializers import (
    HistoryPointSerializer,
    LeaderboardRowSerializer,
    PoolQuerySerializer,
)


def _pool_of(request: Request) -> str:
    query = PoolQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return pools.checked_pool(query.validated_data["pool"])


class LeaderboardPagination(Pagination):
    """`?limit=` and `?offset=` over the places the leaderboard's refresh keeps: the page is an
    index range (places offset+1 on) and `count` the last place, so no page counts the pool."""

    def page(self, request: Request, *, pool: str) -> list[dict[str, Any]]:
        self.request = request
        self.limit = self.get_limit(request)
        self.offset = self.get_offset(request)
        self.count = selectors.leaderboard_size(pool=pool)
        rows = selectors.leaderboard(
            pool=pool, after=self.offset, limit=self.limit or 0, now=clock.now()
        )
        return [asdict(row) for row in rows]


class LeaderboardView(GenericAPIView):
    pagination_class = LeaderboardPagination
    queryset = Rating.objects.none()  # for the schema: the rows come from selectors.leaderboard

    @extend_schema(
        tags=["ratings"],
        summary="A pool's leaderboard",
        description="Players not provisional, best first (`rank` 1), 50 a page (`limit` up to "
        "200, `offset` the places before the page). Places are refreshed within seconds of "
        "each rated game's end (and when a player's long pause makes them provisional again); "
        "ratings and deviations are as they stand now. Errors: `unknown_pool` (400).",
        parameters=[PoolQuerySerializer],
        responses={200: LeaderboardRowSerializer(many=True), 400: ERROR_400, 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        paginator = LeaderboardPagination()
        rows = paginator.page(request, pool=_pool_of(request))
        return paginator.get_paginated_response(rows)


class HistoryView(APIView):
    @extend_schema(
        tags=["ratings"],
        summary="A player's rating history in a pool",
        description="The rating and deviation after each of the player's rated games in the "
        "pool, oldest first; `[]` when they have not played there. Errors: `unknown_pool` "
        "(400).",
        parameters=[PoolQuerySerializer],
        responses={
            200: HistoryPointSerializer(many=True),
            400: ERROR_400,
            401: ERROR_401,
            404: error_response("No such user (`not_found`)."),
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        pool = _pool_of(request)
        user = get_object_or_404(User, pk=pk)
        return Response(
            [
                {
                    "game": point.game_id,
                    "at": point.at,
                    "rating": point.rating,
                    "deviation": point.deviation,
                }
                for point in selectors.history(user_id=user.pk, pool=pool)
            ]
        )
