"""The moderators' desk (CONTRACT.md §4 /moderation/): the queue and a report with its
evidence; and a player's own reports with their answers.

Thin: forms check the input's shape, services act and refuse (their ClubError's message is shown
on the page), web.moderation.shaping reads.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from accounts.models import User
from club.errors import ClubError, status_of
from club.i18n import text
from moderation import services as moderation_services
from moderation.permissions import MODERATE_PERMISSION, REPORTER_IDENTITY_PERMISSION
from web.moderation import shaping
from web.moderation.forms import QueueFilterForm, ResolveForm
from web.shared import not_found, signed_in_user


@login_required
@require_GET
def my_reports(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/my_reports.html",
        {
            "reports": shaping.my_reports(user=signed_in_user(request)),
            "filed": request.GET.get("filed") == "1",
        },
    )


def moderators_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The Moderators group (and superusers); to anybody else the desk does not exist."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.has_perm(MODERATE_PERMISSION):
            return not_found(request)
        return view(request, *args, **kwargs)

    return login_required(guarded)


@moderators_only
@require_GET
def moderation_queue(request: HttpRequest) -> HttpResponse:
    moderator = signed_in_user(request)
    filters = QueueFilterForm(request.GET)
    if not filters.is_valid():
        filters = QueueFilterForm({})
        filters.is_valid()
    chosen = filters.cleaned_data
    offset = chosen.get("offset") or 0
    rows, more = shaping.moderation_queue(
        moderator=moderator,
        status_filter=chosen.get("status") or "open",
        reason=chosen.get("reason") or None,
        overdue=chosen.get("overdue", False),
        offset=offset,
    )
    return render(
        request,
        "web/moderation_queue.html",
        {
            "rows": rows,
            "filters": filters,
            "chosen": chosen,
            "stats": shaping.desk_figures(moderator=moderator),
            "next_offset": offset + shaping.QUEUE_PAGE if more else None,
            "previous_offset": max(0, offset - shaping.QUEUE_PAGE) if offset else None,
            # Open reports come soonest due first: the first on the first page is nearest breach.
            "nearest": next(
                (row.report.pk for row in rows if row.report.status == "open" and not offset),
                None,
            ),
            "status_names": [
                ("open", text("открытые", "open")),
                ("unclaimed", text("никто не взял", "unclaimed")),
                ("claimed", text("взятые", "claimed")),
                ("resolved", text("отвеченные", "answered")),
            ],
        },
    )


@moderators_only
def moderation_report(request: HttpRequest, report_id: int) -> HttpResponse:
    """A report with its evidence; POST claims, releases, answers or reveals the reporter."""
    moderator = signed_in_user(request)
    alert = ""
    status = 200
    reporter: User | None = None
    form = ResolveForm()
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "claim":
                moderation_services.claim_report(report_id=report_id, moderator=moderator)
            elif action == "release":
                moderation_services.release_report(report_id=report_id, moderator=moderator)
            elif action == "resolve":
                form = ResolveForm(request.POST)
                if form.is_valid():
                    moderation_services.resolve_report(
                        report_id=report_id,
                        moderator=moderator,
                        decision=form.cleaned_data["decision"],
                        days=form.cleaned_data["days"],
                        message=form.cleaned_data["message"],
                    )
                    return redirect("web:moderation-report", report_id=report_id)
                status = 400
            elif action == "reveal" and moderator.has_perm(REPORTER_IDENTITY_PERMISSION):
                reporter = moderation_services.reveal_reporter(
                    report_id=report_id, moderator=moderator
                )
            else:
                alert, status = text("Непонятное действие.", "Unknown action."), 400
        except ClubError as error:
            alert, status = error.message, status_of(error)
        else:
            if action in ("claim", "release"):
                return redirect("web:moderation-report", report_id=report_id)
    try:
        desk = shaping.report_desk(report_id=report_id, moderator=moderator)
    except ClubError:
        return not_found(request)
    return render(
        request,
        "web/moderation_report.html",
        {
            "desk": desk,
            "report": desk.row.report,
            "form": form,
            "alert": alert,
            "reporter": reporter,
            "may_reveal": moderator.has_perm(REPORTER_IDENTITY_PERMISSION),
        },
        status=status,
    )
