"""Moderators' admin: the queue with time left, claim/release actions, answering, the evidence.

Every write goes through moderation.services (claims are atomic, every action is audited); the
admin itself never edits a report's fields. The reporter is shown only to holders of
moderation.view_reporter_identity, and each such view is audited.
"""

import contextlib
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import csrf_protect_m
from django.db.models import DurationField, ExpressionWrapper, F, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from accounts.models import User
from club import clock
from club.admin import ClubModelAdmin, ReadOnlyInline, ReadOnlyModelAdmin
from club.errors import ClubError
from moderation import policy, selectors, services
from moderation.models import (
    Afterword,
    AuthorityChange,
    ModerationAuditEntry,
    ModeratorShift,
    Report,
    Sanction,
)
from moderation.permissions import REPORTER_IDENTITY_PERMISSION


class SanctionInline(ReadOnlyInline):
    model = Sanction
    fields = ("kind", "user", "ends_at", "created_at")
    readonly_fields = fields


class AuditEntryInline(ReadOnlyInline):
    model = ModerationAuditEntry
    fields = ("created_at", "moderator", "action", "details")
    readonly_fields = fields


class ResolveReportForm(forms.ModelForm):
    """The answer to a report; saved by moderation.services.resolve_report, never directly."""

    # Not named "decision": that model field is shown read-only above.
    answer = forms.ChoiceField(
        choices=[("", "— not yet —"), *Report.Decision.choices], required=False
    )
    days = forms.IntegerField(min_value=1, max_value=policy.MAX_SANCTION_DAYS, required=False)
    message = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=policy.MODERATOR_MESSAGE_MAX_LENGTH,
        required=False,
        help_text="Sent to the reporter. The accused only receives the sanction notice.",
    )

    class Meta:
        model = Report
        fields: list[str] = []

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        decision = data.get("answer")
        if decision:
            if not data.get("message"):
                self.add_error("message", "Write the answer to the reporter.")
            if decision in (Report.Decision.MUTE, Report.Decision.SUSPEND) and not data.get("days"):
                self.add_error("days", "A mute or suspension needs a number of days.")
        return data


def _moderator(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _format_seconds(seconds: float) -> str:
    sign = "−" if seconds < 0 else ""
    minutes = int(abs(seconds)) // 60
    return f"{sign}{minutes // 60}:{minutes % 60:02d}"


@admin.register(Report)
class ReportAdmin(ClubModelAdmin):
    form = ResolveReportForm
    list_display = (
        "id",
        "reason",
        "queue_state",
        "accused",
        "due_at",
        "time_left",
        "claimed_by",
        "decision",
        "breached_at",
    )
    list_filter = ("status", "reason", "decision", ("breached_at", admin.EmptyFieldListFilter))
    list_select_related = ("accused", "claimed_by")
    ordering = ("due_at", "id")
    search_fields = ("=id", "=game__id", "accused__username")
    actions = ("claim_reports", "release_reports")
    inlines = (SanctionInline, AuditEntryInline)
    evidence_fields = (
        "game",
        "accused",
        "reason",
        "text",
        "afterword_evidence",
        "move_log_evidence",
        "accused_history_evidence",
    )
    state_fields = (
        "status",
        "created_at",
        "due_at",
        "claimed_by",
        "claim_expires_at",
        "due_soon_alerted_at",
        "breached_at",
        "decision",
        "sanction_days",
        "moderator_message",
        "resolved_by",
        "resolved_at",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        # Reports with a conflict of interest are absent for everyone, superusers too: not in the
        # list, their page "does not exist", actions and the answer form never reach them.
        now = clock.now_expression()
        left = ExpressionWrapper(F("due_at") - now, output_field=DurationField())
        claimed = selectors.claim_is_live(now)
        return (
            selectors.reports_moderator_may_handle(moderator=_moderator(request))
            .order_by(*self.get_ordering(request))
            .annotate(left=left, claimed=claimed)
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def _sees_reporter(self, request: HttpRequest) -> bool:
        return request.user.has_perm(REPORTER_IDENTITY_PERMISSION)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        evidence = (
            ("reporter", *self.evidence_fields)
            if self._sees_reporter(request)
            else self.evidence_fields
        )
        fieldsets: list[tuple[str, dict[str, Any]]] = [
            ("Report and evidence", {"fields": evidence}),
            ("Queue", {"fields": self.state_fields}),
        ]
        if obj is not None and obj.status == Report.Status.OPEN:
            fieldsets.append(
                ("Answer (claim the report first)", {"fields": ("answer", "days", "message")})
            )
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = (*self.evidence_fields, *self.state_fields)
        return ("reporter", *readonly) if self._sees_reporter(request) else readonly

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # Every render for a holder of the permission shows the reporter, so every one is audited.
        if self._sees_reporter(request) and object_id.isdigit():
            # An unknown or hidden id raises here; the page itself then answers "not found".
            with contextlib.suppress(ClubError):
                services.reveal_reporter(report_id=int(object_id), moderator=_moderator(request))
        return super().change_view(request, object_id, form_url, extra_context)

    @csrf_protect_m
    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # The answer is saved by services.resolve_report in its own durable transaction, so the
        # page is not wrapped in one (ModelAdmin.changeform_view's) that it would nest in: the
        # page's own body, which django-stubs does not declare.
        return self._changeform_view(  # type: ignore[attr-defined]
            request, object_id, form_url, extra_context
        )

    def save_model(self, request: HttpRequest, obj: Report, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if not data.get("answer"):
            return
        try:
            services.resolve_report(
                report_id=obj.pk,
                moderator=_moderator(request),
                decision=data["answer"],
                days=data.get("days"),
                message=data["message"],
            )
        except ClubError as exc:
            self.message_user(request, f"Not answered: {exc.message}", messages.ERROR)

    @admin.display(description="state")
    def queue_state(self, report: Report) -> str:
        if report.status == Report.Status.RESOLVED:
            return "resolved"
        return "claimed" if report.claimed else "open"  # type: ignore[attr-defined]

    @admin.display(description="time left", ordering="due_at")
    def time_left(self, report: Report) -> str:
        if report.status == Report.Status.RESOLVED:
            return "—"
        left: timedelta = report.left  # type: ignore[attr-defined]
        return _format_seconds(left.total_seconds())

    @admin.display(description="afterword")
    def afterword_evidence(self, report: Report) -> str:
        if report.afterword is None:
            return "—"
        return format_html(
            "<blockquote>{}</blockquote><small>to {} · {}</small>",
            report.afterword.text,
            report.afterword.to,
            report.afterword.created_at,
        )

    @admin.display(description="move log")
    def move_log_evidence(self, report: Report) -> SafeString:
        summary = selectors.move_log_summary(game=report.game)
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (seat["seat"], seat["username"], seat["moves"], seat["automatic_moves"])
                for seat in summary["seats"]
            ),
        )
        return format_html(
            "<p>{} · {} moves · finished {} · abandoned by seat {}</p>"
            "<table><tr><th>seat</th><th>player</th><th>moves</th><th>automatic</th></tr>{}</table>",
            summary["status"],
            summary["total_moves"],
            summary["finished_at"],
            summary["abandoned_by_seat"],
            rows,
        )

    @admin.display(description="accused's history")
    def accused_history_evidence(self, report: Report) -> SafeString:
        history = selectors.accused_history(
            user_id=report.accused_id, excluding_report_id=report.pk
        )
        reports = format_html_join(
            "",
            "<li>#{} · {} · {} · {}</li>",
            (
                (item["id"], item["reason"], item["decision"] or item["status"], item["created_at"])
                for item in history["recent_reports"]
            ),
        )
        sanctions = format_html_join(
            "",
            "<li>{} until {} ({})</li>",
            ((s["kind"], s["ends_at"] or "—", s["created_at"]) for s in history["sanctions"]),
        )
        return format_html(
            "<p>{} earlier report(s)</p><ul>{}</ul><p>Sanctions</p><ul>{}</ul>",
            history["reports_total"],
            reports,
            sanctions,
        )

    @admin.action(description="Claim selected reports", permissions=["change"])
    def claim_reports(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self._act(request, queryset, services.claim_report, "claimed")

    @admin.action(description="Release selected reports", permissions=["change"])
    def release_reports(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self._act(request, queryset, services.release_report, "released")

    def _act(
        self, request: HttpRequest, queryset: QuerySet[Report], service: Any, done: str
    ) -> None:
        moderator = _moderator(request)
        for report_id in queryset.values_list("pk", flat=True):
            try:
                service(report_id=report_id, moderator=moderator)
            except ClubError as exc:
                self.message_user(request, f"Report #{report_id}: {exc.message}", messages.WARNING)
            else:
                self.message_user(request, f"Report #{report_id} {done}.", messages.SUCCESS)


@admin.register(Afterword)
class AfterwordAdmin(ClubModelAdmin):
    list_display = ("id", "game", "author", "to", "recipient", "text", "created_at")
    list_filter = ("to",)
    list_select_related = ("author", "recipient")
    search_fields = ("=game__id", "author__username", "text")
    readonly_fields = ("game", "author", "to", "recipient", "text", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(AuthorityChange)
class AuthorityChangeAdmin(ClubModelAdmin):
    list_display = ("id", "user", "amount", "kind", "reason", "giver", "created_at")
    list_filter = ("kind", "reason")
    list_select_related = ("user", "giver")
    search_fields = ("user__username", "giver__username")
    readonly_fields = (
        "user",
        "amount",
        "kind",
        "reason",
        "giver",
        "afterword",
        "report",
        "created_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Sanction)
class SanctionAdmin(ClubModelAdmin):
    list_display = ("id", "user", "kind", "ends_at", "created_at")
    list_filter = ("kind",)
    list_select_related = ("user",)
    readonly_fields = ("user", "kind", "report", "ends_at", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ModeratorShift)
class ModeratorShiftAdmin(ClubModelAdmin):
    list_display = ("moderator", "on_duty", "updated_at")
    list_filter = ("on_duty",)
    list_editable = ("on_duty",)


@admin.register(ModerationAuditEntry)
class ModerationAuditEntryAdmin(ReadOnlyModelAdmin):
    list_display = ("created_at", "moderator", "action", "report", "details")
    list_filter = ("action",)
    list_select_related = ("moderator",)
    readonly_fields = ("created_at", "moderator", "action", "report", "details")

    def get_queryset(self, request: HttpRequest) -> QuerySet[ModerationAuditEntry]:
        # The log would otherwise tell an accused moderator that a report on them exists.
        visible = selectors.reports_moderator_may_handle(moderator=_moderator(request))
        return super().get_queryset(request).filter(report__in=visible)
