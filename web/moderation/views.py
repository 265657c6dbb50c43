"""The pages around the table (CONTRACT.md §4 /users/{id}/, /moderation/): player cards and
reports, afterwords, notifications with web push, replays, the moderators' desk and the rules.

Thin: forms check the input's shape, services act and refuse (their ClubError's message is shown
on the page), web.club_selectors reads.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from canasta_club.errors import ClubError, status_of
from canasta_club.i18n import current_language, text
from games import selectors as game_selectors
from moderation import services as moderation_services
from moderation.permissions import MODERATE_PERMISSION, REPORTER_IDENTITY_PERMISSION
from notifications import selectors as notification_selectors
from notifications import services as notification_services
from notifications import texts as notification_texts
from notifications import webpush
from notifications.models import Kind
from web import club_selectors
from web.club_forms import AfterwordForm, QueueFilterForm, ReportForm, ResolveForm

CHANNELS = ("in_app", "email", "push")


def _user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]  # login_required has run


def _not_found(request: HttpRequest) -> HttpResponse:
    return render(request, "web/not_found.html", status=404)


# ----------------------------------------------------------------------------- rules


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The club's rules for players (RULES.md as prose, each rule at its id's anchor), with the
    tips and the frequent questions; a refusal at the table links to its rule here."""
    return render(request, "web/rules.html", {"language": current_language()})


# ----------------------------------------------------------------------------- players


def player_card(request: HttpRequest, user_id: int) -> HttpResponse:
    return _card_page(request, user_id, form=ReportForm(), status=200)


def _card_page(
    request: HttpRequest, user_id: int, *, form: ReportForm, status: int
) -> HttpResponse:
    card = club_selectors.player_card(player_id=user_id, viewer=request.user)  # type: ignore[arg-type]
    if card is None:
        return _not_found(request)
    return render(request, "web/player.html", {"card": card, "form": form}, status=status)


@login_required
@require_POST
def report_player(request: HttpRequest, user_id: int) -> HttpResponse:
    """«Пожаловаться»: an anonymous report through the same service as the API."""
    form = ReportForm(request.POST)
    if form.is_valid():
        try:
            moderation_services.create_report(
                reporter=_user(request),
                game_id=form.cleaned_data["game"],
                accused_id=user_id,
                reason=form.cleaned_data["reason"],
                text=form.cleaned_data["text"],
                afterword_id=form.cleaned_data["afterword"],
            )
        except ClubError as error:
            form.add_error(None, error.message)
            return _card_page(request, user_id, form=form, status=status_of(error))
        return redirect(reverse("web:my-reports") + "?filed=1")
    return _card_page(request, user_id, form=form, status=400)


@login_required
@require_GET
def my_reports(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/my_reports.html",
        {
            "reports": club_selectors.my_reports(user=_user(request)),
            "filed": request.GET.get("filed") == "1",
        },
    )


@login_required
@require_POST
def write_afterword(request: HttpRequest, game_id: int) -> HttpResponse:
    """An afterword from the finished game's table page; a refusal (a mute, one already
    written, the window closed) is shown there, in the afterwords' alert."""
    form = AfterwordForm(request.POST)
    if not form.is_valid():
        messages.error(request, text("Напишите несколько слов.", "Write a few words."))
    else:
        try:
            moderation_services.create_afterword(
                game_id=game_id,
                author=_user(request),
                to=form.cleaned_data["to"],
                text=form.cleaned_data["text"],
                partner_id=form.cleaned_data["partner"],
            )
        except ClubError as error:
            messages.error(request, error.message)
    return redirect(reverse("web:table", kwargs={"game_id": game_id}) + "#afterwords")


# ----------------------------------------------------------------------------- notifications


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if request.method == "POST":
        # One notification's button sends its id; "mark all read" sends none.
        ids = [int(value) for value in request.POST.getlist("id") if value.isdigit()]
        notification_services.mark_read(user=user, ids=ids, everything="id" not in request.POST)
        return redirect("web:notifications")
    rows = club_selectors.notifications_page(user=user, language=current_language())
    return render(request, "web/notifications.html", {"rows": rows})


@require_GET
def unread_count(request: HttpRequest) -> JsonResponse:
    """The bell's number, for the page to refresh it without reloading."""
    if not request.user.is_authenticated:
        return JsonResponse({"unread": 0})
    count = notification_selectors.unread_count(user=request.user)
    response = JsonResponse({"unread": count})
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    saved = False
    if request.method == "POST":
        changes: dict[str, Any] = {
            channel: {kind: f"{channel}:{kind}" in request.POST for kind in Kind.values}
            for channel in CHANNELS
        }
        changes["digest"] = "digest" in request.POST
        notification_services.update_settings(user=user, changes=changes)
        saved = True
    switches = notification_selectors.settings_for(user=user)
    language = current_language()
    rows = [
        {
            "kind": kind,
            "name": notification_texts.KIND_NAMES[kind][language],
            "channels": [(channel, switches[channel][kind]) for channel in CHANNELS],
        }
        for kind in Kind.values
    ]
    return render(
        request,
        "web/notification_settings.html",
        {
            "rows": rows,
            "digest": switches["digest"],
            "saved": saved,
            "push_key": webpush.application_server_key(),
            "devices": notification_selectors.push_device_count(user=user),
        },
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """At the site's root so that it may show pushes for every page (its scope is /)."""
    response = render(request, "web/sw.js", content_type="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


# ----------------------------------------------------------------------------- replays


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game step by step: ?step=n is the position after n moves."""
    table = game_selectors.game_with_seats(game_id=game_id)
    if (
        table is None
        or not game_selectors.may_see(table=table, viewer=request.user)  # type: ignore[arg-type]
        or not table.game.is_over
    ):
        return _not_found(request)
    # A step that names no move (?step=abc, -5, 999) shows the nearest position and says so.
    asked = request.GET.get("step", "0").strip()
    try:
        step = int(asked)
    except ValueError:
        step = 0
    frame = club_selectors.replay_page(table=table, step=step)
    note = club_selectors.replay_step_note(asked=asked, shown=frame["step"], total=frame["total"])
    return render(
        request, "web/replay.html", {"game": table.game, "frame": frame, "step_note": note}
    )


# ----------------------------------------------------------------------------- moderators


def moderators_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The Moderators group (and superusers); to anybody else the desk does not exist."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.has_perm(MODERATE_PERMISSION):
            return render(request, "web/not_found.html", status=404)
        return view(request, *args, **kwargs)

    return login_required(guarded)


@moderators_only
@require_GET
def moderation_queue(request: HttpRequest) -> HttpResponse:
    moderator = _user(request)
    filters = QueueFilterForm(request.GET)
    if not filters.is_valid():
        filters = QueueFilterForm({})
        filters.is_valid()
    chosen = filters.cleaned_data
    offset = chosen.get("offset") or 0
    rows, more = club_selectors.moderation_queue(
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
            "stats": club_selectors.desk_figures(moderator=moderator),
            "next_offset": offset + club_selectors.QUEUE_PAGE if more else None,
            "previous_offset": max(0, offset - club_selectors.QUEUE_PAGE) if offset else None,
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
    moderator = _user(request)
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
        desk = club_selectors.report_desk(report_id=report_id, moderator=moderator)
    except ClubError:
        return _not_found(request)
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
