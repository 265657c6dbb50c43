"""Request validation and response shapes of the moderation API (thin: no logic)."""

from datetime import datetime

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import User
from club.i18n import text
from moderation import policy
from moderation.models import Afterword, AuthorityChange, ModeratorShift, Report, Sanction
from moderation.phrases import kudos_outcome


class PlayerRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "display_name")


# --- afterwords ----------------------------------------------------------------------------------


class AfterwordCreateSerializer(serializers.Serializer):
    to = serializers.ChoiceField(
        choices=Afterword.To.choices,
        help_text="`partner`: kudos to a partner (the engine's partnerships; none at a table "
        "where each plays alone: 400 `no_partner`); `table`: to everyone at the table.",
    )
    text = serializers.CharField(max_length=policy.AFTERWORD_MAX_LENGTH)
    partner = serializers.IntegerField(
        required=False,
        help_text="The partner's user id: needed only with several partners (six players in "
        "two teams of three); otherwise 400 `invalid_partner`.",
    )


class AfterwordSerializer(serializers.ModelSerializer):
    author = PlayerRefSerializer(read_only=True)

    class Meta:
        model = Afterword
        fields: tuple[str, ...] = ("id", "game", "author", "to", "recipient", "text", "created_at")


class KudosSerializer(serializers.Serializer):
    """What a partner afterword did to the partner's Authority (anti-farming rules, R-CLUB-3)."""

    counted = serializers.SerializerMethodField(help_text="Whether the partner's Authority rose.")
    reason = serializers.SerializerMethodField(
        help_text=(
            "One of `counted`; or why not: `giver_too_new` (the giver's account is younger than "
            f"{policy.KUDOS_GIVER_MIN_ACCOUNT_AGE.days} days), `giver_few_games` (fewer than "
            f"{policy.KUDOS_GIVER_MIN_FINISHED_GAMES} finished games), `pair_limit` (the pair "
            f"already counted {policy.KUDOS_PAIR_LIMIT} kudos in "
            f"{policy.KUDOS_PAIR_PERIOD.days} days)."
        )
    )
    message = serializers.SerializerMethodField(help_text="The same, in the request's language.")

    def get_counted(self, change: AuthorityChange) -> bool:
        return change.amount > 0

    # A string, not an enum: drf-spectacular would rename the reports' `ReasonEnum` to a hash.
    def get_reason(self, change: AuthorityChange) -> str:
        return change.reason

    def get_message(self, change: AuthorityChange) -> str:
        return kudos_outcome(change.reason)


class AfterwordCreatedSerializer(AfterwordSerializer):
    kudos = serializers.SerializerMethodField(
        help_text="For a partner afterword: whether it counted as kudos; null for the table."
    )

    class Meta(AfterwordSerializer.Meta):
        fields = (*AfterwordSerializer.Meta.fields, "kudos")

    @extend_schema_field(KudosSerializer(allow_null=True))
    def get_kudos(self, afterword: Afterword) -> dict | None:
        if afterword.to != Afterword.To.PARTNER:
            return None
        # The service created the change with the afterword: cached on it, no query.
        return KudosSerializer(afterword.authority_change).data


class WarmPhraseSerializer(serializers.Serializer):
    key = serializers.CharField()
    ru = serializers.CharField()
    en = serializers.CharField()
    text = serializers.SerializerMethodField(help_text="The phrase in the request's language.")

    def get_text(self, phrase: dict) -> str:
        return text(phrase["ru"], phrase["en"])


class ClubMoodSerializer(serializers.Serializer):
    days = serializers.IntegerField()
    warm_words = serializers.IntegerField()
    finished_games = serializers.IntegerField()
    warm_words_per_game = serializers.FloatField()


# --- reports (players) ---------------------------------------------------------------------------


class ReportCreateSerializer(serializers.Serializer):
    game = serializers.IntegerField(min_value=1)
    accused = serializers.IntegerField(min_value=1)
    reason = serializers.ChoiceField(choices=Report.Reason.choices)
    text = serializers.CharField(
        max_length=policy.REPORT_TEXT_MAX_LENGTH, allow_blank=True, required=False, default=""
    )
    afterword = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)


class ReportReceiptSerializer(serializers.ModelSerializer):
    """All a reporter gets back: the report exists and is waiting."""

    class Meta:
        model = Report
        fields = ("id", "status")


class MyReportSerializer(serializers.ModelSerializer):
    class Meta:
        model = Report
        fields = (
            "id",
            "game",
            "accused",
            "reason",
            "text",
            "afterword",
            "status",
            "created_at",
            "decision",
            "moderator_message",
            "resolved_at",
        )


class MySanctionSerializer(serializers.ModelSerializer):
    reason = serializers.CharField(source="report.reason", read_only=True)

    class Meta:
        model = Sanction
        fields = ("kind", "reason", "ends_at", "created_at")


# --- the moderators' queue -----------------------------------------------------------------------


class QueueFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["open", "unclaimed", "claimed", "resolved"],
        default="open",
        help_text="open: unanswered (soonest due first); resolved: answered (latest first).",
    )
    reason = serializers.ChoiceField(choices=Report.Reason.choices, required=False)
    overdue = serializers.BooleanField(
        required=False, default=False, help_text="Only open reports past their due time."
    )


class EvidenceAfterwordSerializer(serializers.ModelSerializer):
    class Meta:
        model = Afterword
        fields = ("id", "to", "text", "created_at")


class QueueReportSerializer(serializers.ModelSerializer):
    """A report in the queue; never the reporter."""

    accused = PlayerRefSerializer(read_only=True)
    claimed_by = PlayerRefSerializer(read_only=True, allow_null=True)
    afterword = EvidenceAfterwordSerializer(read_only=True, allow_null=True)
    seconds_left = serializers.SerializerMethodField(
        help_text="Seconds until the 4-hour answer deadline; negative once it has passed."
    )

    class Meta:
        model = Report
        fields: tuple[str, ...] = (
            "id",
            "game",
            "accused",
            "reason",
            "text",
            "afterword",
            "status",
            "created_at",
            "due_at",
            "seconds_left",
            "claimed_by",
            "claim_expires_at",
            "breached_at",
            "decision",
            "resolved_at",
        )

    def get_seconds_left(self, report: Report) -> int:
        now: datetime = self.context["now"]
        return int((report.due_at - now).total_seconds())


class MoveSummarySeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    moves = serializers.IntegerField()
    automatic_moves = serializers.IntegerField()


class RecentMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    type = serializers.CharField(allow_null=True)
    automatic = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class MoveLogSummarySerializer(serializers.Serializer):
    status = serializers.CharField()
    mode = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    winner_team = serializers.IntegerField(allow_null=True)
    abandoned_by_seat = serializers.IntegerField(allow_null=True)
    total_moves = serializers.IntegerField()
    seats = MoveSummarySeatSerializer(many=True)
    recent_moves = RecentMoveSerializer(many=True)


class HistoryReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    reason = serializers.CharField()
    status = serializers.CharField()
    decision = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


class HistorySanctionSerializer(serializers.Serializer):
    kind = serializers.CharField()
    ends_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    report_id = serializers.IntegerField()


class AccusedHistorySerializer(serializers.Serializer):
    reports_total = serializers.IntegerField()
    reports_by_decision = serializers.DictField(child=serializers.IntegerField())
    recent_reports = HistoryReportSerializer(many=True)
    sanctions = HistorySanctionSerializer(many=True)


class ReportDetailSerializer(QueueReportSerializer):
    """A report with its evidence and the accused's history; the reporter only via /reporter/."""

    resolved_by = PlayerRefSerializer(read_only=True, allow_null=True)
    move_log = serializers.SerializerMethodField()
    accused_history = serializers.SerializerMethodField()

    class Meta(QueueReportSerializer.Meta):
        fields = (
            *QueueReportSerializer.Meta.fields,
            "sanction_days",
            "moderator_message",
            "resolved_by",
            "move_log",
            "accused_history",
        )

    @extend_schema_field(MoveLogSummarySerializer)
    def get_move_log(self, report: Report) -> dict:
        return MoveLogSummarySerializer(self.context["move_log"]).data

    @extend_schema_field(AccusedHistorySerializer)
    def get_accused_history(self, report: Report) -> dict:
        return AccusedHistorySerializer(self.context["accused_history"]).data


class ResolveSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=Report.Decision.choices)
    days = serializers.IntegerField(
        min_value=1,
        max_value=policy.MAX_SANCTION_DAYS,
        required=False,
        allow_null=True,
        default=None,
        help_text="Length of a mute or suspension in days (required for those).",
    )
    message = serializers.CharField(
        max_length=policy.MODERATOR_MESSAGE_MAX_LENGTH,
        help_text="The answer the reporter receives.",
    )


class ReporterIdentitySerializer(serializers.Serializer):
    report = serializers.IntegerField()
    reporter = PlayerRefSerializer()


class ModerationStatsSerializer(serializers.Serializer):
    open_reports = serializers.IntegerField()
    oldest_open_age_seconds = serializers.IntegerField(allow_null=True)
    answered_within_sla_7d = serializers.FloatField(
        allow_null=True, help_text="Share of reports due in the last 7 days answered in time."
    )
    answered_within_sla_30d = serializers.FloatField(
        allow_null=True, help_text="Share of reports due in the last 30 days answered in time."
    )
    median_answer_seconds_30d = serializers.IntegerField(
        allow_null=True, help_text="Median time from filing to answer, reports answered in 30 days."
    )


class DutySerializer(serializers.ModelSerializer):
    class Meta:
        model = ModeratorShift
        fields = ("on_duty",)
        extra_kwargs = {"on_duty": {"required": True}}
