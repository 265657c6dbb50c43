"""The bell's page of notifications, its unread count, the notification settings with web push,
and the service worker that shows the pushes."""

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from club.i18n import current_language
from notifications import selectors as notification_selectors
from notifications import services as notification_services
from notifications import webpush
from notifications.models import Kind
from web.notifications.shaping import notifications_page
from web.shared import signed_in_user

CHANNELS = ("in_app", "email", "push")


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    if request.method == "POST":
        # One notification's button sends its id; "mark all read" sends none.
        ids = [int(value) for value in request.POST.getlist("id") if value.isdigit()]
        notification_services.mark_read(user=user, ids=ids, everything="id" not in request.POST)
        return redirect("web:notifications")
    rows = notifications_page(user=user, language=current_language())
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
    user = signed_in_user(request)
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
    rows = [
        {
            "kind": kind.value,
            "name": kind.label,
            "channels": [(channel, switches[channel][kind]) for channel in CHANNELS],
        }
        for kind in Kind
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
