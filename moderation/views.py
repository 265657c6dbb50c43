"""HTTP endpoints of afterwords, reports and the moderators' queue (thin: services do the work).

Bodies are JSON only (CONTRACT.md §3): the API's default parser, club.api.JSONParser.
"""

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from club import clock
from club.openapi import error_response
from moderation import selectors, services
from moderation.models import Report
from moderation.permissions import CanSeeReporterIdentity, IsModerator
from moderation.serializers import (
    AfterwordCreatedSerializer,
    AfterwordCreateSerializer,
    AfterwordSerializer,
    ClubMoodSerializer,
    DutySerializer,
    ModerationStatsSerializer,
    MyReportSerializer,
    MySanctionSerializer,
    QueueFilterSerializer,
    QueueReportSerializer,
    ReportCreateSerializer,
    ReportDetailSerializer,
    ReporterIdentitySerializer,
    ReportReceiptSerializer,
    ResolveSerializer,
    WarmPhraseSerializer,
)

# A moderator's conflict of interest hides the report rather than refusing it (nothing revealed).
NOT_FOUND_OR_CONFLICTED = (
    "`not_found`: no such report, or one the caller may not handle: about them, filed by them, "
    "or about a game they played."
)


def _errors(**codes_by_status: str) -> dict[int, OpenApiResponse]:
    """Error responses for the schema, 401 included, e.g. _errors(e409="`game_not_over`")."""
    return {
        int(key.removeprefix("e")): error_response(description)
        for key, description in {"e401": "Not authenticated.", **codes_by_status}.items()
    }


# --- afterwords ----------------------------------------------------------------------------------


class GameAfterwordsView(APIView):
    @extend_schema(
        operation_id="game_afterwords_list",
        summary="Afterwords of a game the caller played: table messages and own partner words",
        responses={
            200: AfterwordSerializer(many=True),
            **_errors(e403="`not_a_player`", e404="`not_found`"),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        afterwords = selectors.afterwords_visible_to(game_id=game_id, viewer=request_user(request))
        return Response(AfterwordSerializer(afterwords, many=True).data)

    @extend_schema(
        operation_id="game_afterwords_create",
        summary="Leave an afterword to the partner (kudos) or to the table, within 7 days",
        description=(
            "A partner afterword is kudos: `kudos` says whether it raised the partner's Authority "
            "and, if not, why (the giver's account is too new or has too few finished games, or "
            "the pair's monthly limit is reached). The words are delivered either way."
        ),
        request=AfterwordCreateSerializer,
        responses={
            201: AfterwordCreatedSerializer,
            **_errors(
                e400="`invalid`, `afterword_window_closed`, `no_partner`, `invalid_partner`, "
                "`partner_is_bot`",
                e403="`not_a_player`, `muted`",
                e404="`not_found`",
                e409="`game_not_over`, `afterword_exists`",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = AfterwordCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        afterword = services.create_afterword(
            game_id=game_id,
            author=request_user(request),
            to=body.validated_data["to"],
            text=body.validated_data["text"],
            partner_id=body.validated_data.get("partner"),
        )
        return Response(AfterwordCreatedSerializer(afterword).data, status=status.HTTP_201_CREATED)


class WarmPhrasesView(APIView):
    @extend_schema(
        operation_id="afterword_phrases",
        summary="Preset warm phrases (ru and en; `text` in the request's language)",
        responses={200: WarmPhraseSerializer(many=True), **_errors()},
    )
    def get(self, request: Request) -> Response:
        phrases = WarmPhraseSerializer(selectors.warm_phrases(), many=True)
        return Response(phrases.data)


class ClubMoodView(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="club_mood",
        summary="The club's mood: warm words to partners per finished game, last 7 days",
        description="Public: no authentication. Throttled per client address.",
        responses={
            200: ClubMoodSerializer,
            429: error_response("`throttled`"),
        },
    )
    def get(self, request: Request) -> Response:
        return Response(ClubMoodSerializer(selectors.club_mood()).data)


# --- reports (players) ---------------------------------------------------------------------------


class ReportCreateView(APIView):
    @extend_schema(
        operation_id="report_create",
        summary="Report another player of a finished game (anonymous to everyone but moderators)",
        request=ReportCreateSerializer,
        responses={
            201: ReportReceiptSerializer,
            **_errors(
                e400="`invalid`, `invalid_accused`, `invalid_afterword`",
                e403="`not_a_player`",
                e404="`not_found` (the game)",
                e409="`game_not_over`, `duplicate_report`",
                e429="`report_limit`",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        body = ReportCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        report = services.create_report(
            reporter=request_user(request),
            game_id=body.validated_data["game"],
            accused_id=body.validated_data["accused"],
            reason=body.validated_data["reason"],
            text=body.validated_data["text"],
            afterword_id=body.validated_data["afterword"],
        )
        return Response(ReportReceiptSerializer(report).data, status=status.HTTP_201_CREATED)


class MyReportsView(ListAPIView):
    serializer_class = MyReportSerializer

    @extend_schema(
        operation_id="reports_mine",
        summary="Reports the caller filed, with the moderators' answers",
        responses={200: MyReportSerializer(many=True), **_errors()},
    )
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Report]:
        return selectors.reports_filed_by(user=request_user(self.request))


class MySanctionsView(APIView):
    @extend_schema(
        operation_id="sanctions_mine",
        summary="Sanctions the caller received",
        responses={200: MySanctionSerializer(many=True), **_errors()},
    )
    def get(self, request: Request) -> Response:
        sanctions = selectors.sanctions_of(user=request_user(request))
        return Response(MySanctionSerializer(sanctions, many=True).data)


# --- the moderators' queue -----------------------------------------------------------------------


class ModerationQueueView(ListAPIView):
    permission_classes = (IsModerator,)
    serializer_class = QueueReportSerializer

    @extend_schema(
        operation_id="moderation_reports_list",
        summary="The queue, soonest due first; status open (default), unclaimed, claimed, resolved",
        description=(
            "Leaves out the reports the caller may not handle (superusers too): those about them, "
            "filed by them, or about a game they played."
        ),
        parameters=[QueueFilterSerializer],
        responses={
            200: QueueReportSerializer(many=True),
            **_errors(e400="`invalid` filter", e403="Not a moderator."),
        },
    )
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        self.now = clock.now()
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Report]:
        filters = QueueFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.report_queue(
            moderator=request_user(self.request),
            status_filter=filters.validated_data["status"],
            reason=filters.validated_data.get("reason"),
            now=self.now,
            overdue=filters.validated_data["overdue"],
        )

    def get_serializer_context(self) -> dict[str, object]:
        return {**super().get_serializer_context(), "now": self.now}


class ModerationReportView(APIView):
    permission_classes = (IsModerator,)

    @extend_schema(
        operation_id="moderation_report_detail",
        summary="A report with its evidence and the accused's history",
        responses={
            200: ReportDetailSerializer,
            **_errors(e403="Not a moderator.", e404=NOT_FOUND_OR_CONFLICTED),
        },
    )
    def get(self, request: Request, report_id: int) -> Response:
        report = selectors.report_for_moderator(
            report_id=report_id, moderator=request_user(request)
        )
        context = {
            "now": clock.now(),
            "move_log": selectors.move_log_summary(game=report.game),
            "accused_history": selectors.accused_history(
                user_id=report.accused_id, excluding_report_id=report.pk
            ),
        }
        return Response(ReportDetailSerializer(report, context=context).data)


class ClaimReportView(APIView):
    permission_classes = (IsModerator,)

    @extend_schema(
        operation_id="moderation_report_claim",
        summary="Claim a report (one moderator at a time; lapses after 30 idle minutes)",
        request=None,
        responses={
            200: QueueReportSerializer,
            **_errors(
                e403="Not a moderator.",
                e404=NOT_FOUND_OR_CONFLICTED,
                e409="`report_claimed`, `report_resolved`",
            ),
        },
    )
    def post(self, request: Request, report_id: int) -> Response:
        moderator = request_user(request)
        report = services.claim_report(report_id=report_id, moderator=moderator)
        report = selectors.report_for_moderator(report_id=report.pk, moderator=moderator)
        return Response(QueueReportSerializer(report, context={"now": clock.now()}).data)


class ReleaseReportView(APIView):
    permission_classes = (IsModerator,)

    @extend_schema(
        operation_id="moderation_report_release",
        summary="Give a claimed report back to the queue",
        request=None,
        responses={
            200: QueueReportSerializer,
            **_errors(
                e403="Not a moderator.",
                e404=NOT_FOUND_OR_CONFLICTED,
                e409="`not_claimed`, `report_resolved`",
            ),
        },
    )
    def post(self, request: Request, report_id: int) -> Response:
        moderator = request_user(request)
        report = services.release_report(report_id=report_id, moderator=moderator)
        report = selectors.report_for_moderator(report_id=report.pk, moderator=moderator)
        return Response(QueueReportSerializer(report, context={"now": clock.now()}).data)


class ResolveReportView(APIView):
    permission_classes = (IsModerator,)

    @extend_schema(
        operation_id="moderation_report_resolve",
        summary="Answer a claimed report: dismiss, warn, mute or suspend (days)",
        request=ResolveSerializer,
        responses={
            200: QueueReportSerializer,
            **_errors(
                e400="`invalid`, `days_required`",
                e403="Not a moderator.",
                e404=NOT_FOUND_OR_CONFLICTED,
                e409="`not_claimed`, `report_resolved`",
            ),
        },
    )
    def post(self, request: Request, report_id: int) -> Response:
        body = ResolveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        moderator = request_user(request)
        report = services.resolve_report(
            report_id=report_id,
            moderator=moderator,
            decision=body.validated_data["decision"],
            days=body.validated_data["days"],
            message=body.validated_data["message"],
        )
        report = selectors.report_for_moderator(report_id=report.pk, moderator=moderator)
        return Response(QueueReportSerializer(report, context={"now": clock.now()}).data)


class ReporterIdentityView(APIView):
    permission_classes = (IsModerator, CanSeeReporterIdentity)

    @extend_schema(
        operation_id="moderation_report_reporter",
        summary="Who filed the report (needs moderation.view_reporter_identity; audited)",
        responses={
            200: ReporterIdentitySerializer,
            **_errors(
                e403="Lacks moderation.view_reporter_identity.", e404=NOT_FOUND_OR_CONFLICTED
            ),
        },
    )
    def get(self, request: Request, report_id: int) -> Response:
        reporter = services.reveal_reporter(report_id=report_id, moderator=request_user(request))
        return Response(
            ReporterIdentitySerializer({"report": report_id, "reporter": reporter}).data
        )


class ModerationStatsView(APIView):
    permission_classes = (IsModerator,)

    @extend_schema(
        operation_id="moderation_stats",
        summary="Open reports, oldest open age, share answered within the SLA, median answer time",
        description="Over the reports the caller may handle: never those about them, filed by "
        "them, or about a game they played.",
        responses={200: ModerationStatsSerializer, **_errors(e403="Not a moderator.")},
    )
    def get(self, request: Request) -> Response:
        stats = selectors.moderation_stats(moderator=request_user(request))
        return Response(ModerationStatsSerializer(stats).data)


class DutyView(APIView):
    permission_classes = (IsModerator,)

    @extend_schema(
        operation_id="moderation_duty_get",
        summary="Whether the caller is on duty (on-duty moderators get the 1-hour-left alerts)",
        responses={200: DutySerializer, **_errors(e403="Not a moderator.")},
    )
    def get(self, request: Request) -> Response:
        return Response({"on_duty": selectors.is_on_duty(moderator=request_user(request))})

    @extend_schema(
        operation_id="moderation_duty_set",
        summary="Go on or off duty",
        request=DutySerializer,
        responses={200: DutySerializer, **_errors(e400="`invalid`", e403="Not a moderator.")},
    )
    def put(self, request: Request) -> Response:
        body = DutySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        shift = services.set_on_duty(
            moderator=request_user(request), on_duty=body.validated_data["on_duty"]
        )
        return Response(DutySerializer(shift).data)
