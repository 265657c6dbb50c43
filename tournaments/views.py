"""The tournaments API (CONTRACT §7): list and open, one tournament, enter and leave, start."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from club.openapi import ERROR_400, ERROR_401, error_response
from tournaments import errors, selectors, services
from tournaments.models import Tournament
from tournaments.serializers import (
    JoinTournamentSerializer,
    TournamentCreateSerializer,
    TournamentDetailSerializer,
    TournamentQuerySerializer,
    TournamentSummarySerializer,
)

ERROR_404 = error_response("No such tournament (`not_found`).")


def _tournament_or_404(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()
    if tournament is None:
        raise errors.tournament_not_found()
    return tournament


def _answer(request: Request, tournament_id: int, *, code: int = status.HTTP_200_OK) -> Response:
    """The tournament in full, as the caller sees it, read after the change committed."""
    tournament = _tournament_or_404(tournament_id)
    return Response(
        selectors.tournament_detail(tournament, viewer=request_user(request)), status=code
    )


class TournamentsView(GenericAPIView):
    serializer_class = TournamentCreateSerializer
    queryset = Tournament.objects.none()

    @extend_schema(
        tags=["tournaments"],
        summary="Tournaments",
        description="Newest first; `?status=open` those taking entries, `running`, `finished` "
        "(and `cancelled`: started with too few entries).",
        parameters=[TournamentQuerySerializer],
        responses={200: TournamentSummarySerializer(many=True), 400: ERROR_400, 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        query = TournamentQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = self.paginate_queryset(
            selectors.tournaments(status=query.validated_data.get("status"))
        )
        rows = [
            # `entry_count`: annotated by selectors.tournaments
            selectors.tournament_summary(tournament, entry_count=tournament.entry_count)  # type: ignore[attr-defined]
            for tournament in page or []
        ]
        return self.get_paginated_response(rows)

    @extend_schema(
        tags=["tournaments"],
        summary="Open a tournament",
        description="Anyone may open one; it takes entries until its creator starts it "
        "(`POST .../start/`) or `starts_at` comes. Each round's games are opened and seated by "
        "the club; the next round is paired within seconds of the end of the last game of a "
        "round; a round's games not over by its deadline are played out by the club's bots, "
        "and a timed-out turn is played by a bot as in any game: nobody is ever disqualified. "
        "Vacations and agreed pauses work as in any correspondence game. Errors: `invalid` "
        "(400, per field), `invalid_rules` (400: the table's options, or a table of more than "
        "two sides), `invalid_partners` (400: fixed pairs need a table of four; rotating "
        "partners are seated two a side), `suspended` (403).",
        request=TournamentCreateSerializer,
        responses={
            201: TournamentDetailSerializer,
            400: ERROR_400,
            401: ERROR_401,
            403: error_response("`suspended`."),
        },
        examples=[
            OpenApiExample(
                "a Swiss correspondence tournament of fixed pairs",
                value={
                    "name": "Весенний кубок",
                    "mode": "async",
                    "format": "swiss",
                    "rounds": 5,
                    "deals": 2,
                    "duplicate": False,
                    "partners": "fixed",
                    "max_entries": 32,
                    "starts_at": "2027-03-01T09:00:00Z",
                },
                request_only=True,
            ),
            OpenApiExample(
                "a live duplicate round robin with rotating partners",
                value={
                    "name": "Вечерний дубль",
                    "mode": "live",
                    "format": "round_robin",
                    "deals": 1,
                    "duplicate": True,
                    "partners": "rotating",
                    "max_entries": 8,
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.create_tournament(
            user=request_user(request), spec=services.TournamentSpec(**serializer.validated_data)
        )
        return _answer(request, tournament.pk, code=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    @extend_schema(
        tags=["tournaments"],
        summary="A tournament: entries, rounds and their games, standings",
        description="`standings` are live: a game counts once it is over (in duplicate, once "
        "its round is over, as a board's match points need every table). `your_entry` is the "
        "caller's entry, if any.",
        responses={200: TournamentDetailSerializer, 401: ERROR_401, 404: ERROR_404},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return _answer(request, tournament_id)


class JoinTournamentView(APIView):
    @extend_schema(
        tags=["tournaments"],
        summary="Enter a tournament",
        description="With fixed pairs, `partner` is required and both of you make one entry. "
        "Errors: `partner_required`, `partner_not_allowed`, `invalid_partner` (a bot, yourself, "
        "nobody) (400); `suspended` (403); `tournament_not_open` (started or over), "
        "`tournament_full`, `already_entered`, `partner_already_entered`, `partner_suspended` "
        "(409).",
        request=JoinTournamentSerializer,
        responses={
            200: TournamentDetailSerializer,
            400: ERROR_400,
            401: ERROR_401,
            403: error_response("`suspended`."),
            404: ERROR_404,
            409: error_response(
                "`tournament_not_open`, `tournament_full`, `already_entered`, "
                "`partner_already_entered`, `partner_suspended`."
            ),
        },
        examples=[OpenApiExample("a pair", value={"partner": 42}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        serializer = JoinTournamentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.join_tournament(
            tournament_id=tournament_id,
            user=request_user(request),
            partner_id=serializer.validated_data.get("partner"),
        )
        return _answer(request, tournament_id)

    @extend_schema(
        tags=["tournaments"],
        summary="Leave a tournament before it starts",
        description="Your entry goes (a fixed pair's, with your partner). Errors: "
        "`tournament_not_open`, `not_entered` (409).",
        request=None,
        responses={
            200: TournamentDetailSerializer,
            401: ERROR_401,
            404: ERROR_404,
            409: error_response("`tournament_not_open`, `not_entered`."),
        },
    )
    def delete(self, request: Request, tournament_id: int) -> Response:
        services.leave_tournament(tournament_id=tournament_id, user=request_user(request))
        return _answer(request, tournament_id)


class StartTournamentView(APIView):
    @extend_schema(
        tags=["tournaments"],
        summary="Start a tournament now",
        description="Its creator only. The first round is paired and every game of it opened "
        "and seated before the answer. Errors: `not_creator` (403); `not_enough_entries` (409: "
        "fewer than a table's worth, two tables' in duplicate; with `entries` and `needed`), "
        "`tournament_not_open` (409).",
        request=None,
        responses={
            200: TournamentDetailSerializer,
            401: ERROR_401,
            403: error_response("`not_creator`."),
            404: ERROR_404,
            409: error_response("`not_enough_entries`, `tournament_not_open`."),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        services.start_tournament(tournament_id=tournament_id, user=request_user(request))
        return _answer(request, tournament_id)
