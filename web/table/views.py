"""The club's pages (CONTRACT.md §4). Thin: forms in, services and selectors, templates out."""

import json
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from accounts import services as account_services
from accounts.models import User
from canasta_club import clock
from canasta_club.errors import ClubError
from canasta_club.i18n import text
from canasta_club.session_login import FreshSessionLoginView
from games import presence
from games import selectors as game_selectors
from games import services as game_services
from web import selectors
from web.forms import TARGETS, OpenTableForm, PasswordResetRequestForm, ProfileForm, SignUpForm
from web.middleware import LANGUAGE_CODES, LANGUAGE_COOKIE
from web.refusals import refusal_of

LANGUAGE_COOKIE_AGE = 365 * 24 * 3600


def _user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]  # login_required has run


# ----------------------------------------------------------------------------- accounts


def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user, _token = account_services.register_user(**form.cleaned_data)
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
        else:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            return redirect("web:lobby")
    return render(request, "web/signup.html", {"form": form}, status=400 if form.errors else 200)


class LogInView(FreshSessionLoginView):
    """The club's log-in (canasta_club.session_login: a new session each time, 429 while the
    failed log-in limits refuse); lands on the lobby."""

    template_name = "web/login.html"
    next_page = "/"


class LogOutView(auth_views.LogoutView):
    next_page = "/"


def password_reset(request: HttpRequest) -> HttpResponse:
    """The email flow of the API: a link to /password-reset/{uid}/{token}/ (if the email has an
    account; the page says the same either way)."""
    form = PasswordResetRequestForm(request.POST or None)
    sent = False
    if request.method == "POST" and form.is_valid():
        account_services.request_password_reset(email=form.cleaned_data["email"])
        sent = True
    return render(request, "web/password_reset.html", {"form": form, "sent": sent})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    initial = {
        "display_name": user.display_name,
        "email": user.email,
        "language": user.language,
        "confirm_discard": user.confirm_discard,
    }
    form = ProfileForm(request.POST or None, initial=initial)
    saved = False
    if request.method == "POST" and form.is_valid():
        try:
            account_services.update_profile(request=request, user=user, **form.cleaned_data)
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
        else:
            return redirect(reverse("web:profile") + "?saved=1")
    saved = request.GET.get("saved") == "1"
    return render(
        request,
        "web/profile.html",
        {"form": form, "saved": saved, "stats": game_selectors.player_stats(user=user)},
        status=400 if form.errors else 200,
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switch: the user's language when signed in, a cookie for visitors (both, in fact, so
    the page after log-out keeps it)."""
    language = request.POST.get("language", "")
    back = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = "/"
    response = HttpResponseRedirect(back)
    if language in LANGUAGE_CODES:
        if request.user.is_authenticated:
            account_services.update_profile(request=request, user=_user(request), language=language)
        response.set_cookie(LANGUAGE_COOKIE, language, max_age=LANGUAGE_COOKIE_AGE, samesite="Lax")
    return response


# ----------------------------------------------------------------------------- lobby


def lobby(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "web/welcome.html")
    form = OpenTableForm(initial={"mode": "async", "length": "match"})
    return _lobby_page(request, form, status=200)


def _lobby_page(request: HttpRequest, form: OpenTableForm, *, status: int) -> HttpResponse:
    context = {
        "form": form,
        "targets": TARGETS,
        # The rows' "в запасе 3 часа" and "уже 1 минуту", on the club's clock read once.
        "now": clock.now(),
        **selectors.lobby_sections(user=_user(request)),
    }
    return render(request, "web/lobby.html", context, status=status)


@login_required
@require_POST
def open_table(request: HttpRequest) -> HttpResponse:
    form = OpenTableForm(request.POST)
    if form.is_valid():
        try:
            game = game_services.open_table(
                user=_user(request),
                mode=form.cleaned_data["mode"],
                length=form.cleaned_data["length"],
                rules=form.rules_options(),
                private=form.cleaned_data["private"],
                seat=form.cleaned_data["seat"],
            )
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
        else:
            return redirect("web:table", game_id=game.pk)
    return _lobby_page(request, form, status=400)


# ----------------------------------------------------------------------------- the table


def _table_or_404(request: HttpRequest, game_id: int) -> selectors.TablePage | HttpResponse:
    page = selectors.table_page(
        game_id=game_id, viewer=request.user, invite_code=request.GET.get("invite", "")
    )
    if page is None:
        return render(request, "web/not_found.html", status=404)
    if page.seat is not None:
        # A seated player looking at the table is at the table (R-CLUB-2).
        presence.mark_seen(seat=page.seat, now=page.now)
    return page


def table(request: HttpRequest, game_id: int) -> HttpResponse:
    page = _table_or_404(request, game_id)
    if isinstance(page, HttpResponse):
        return page
    return render(request, "web/table.html", {"page": page, "live": settings.LIVE_EVENTS})


@require_GET
def table_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table as the caller's seat sees it, for the page to swap in after an event (ETag'd:
    a poll while nothing changed is a 304)."""
    page = _table_or_404(request, game_id)
    if isinstance(page, HttpResponse):
        return page
    response = render(request, "web/_table.html", {"page": page})
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _action_of(request: HttpRequest) -> dict[str, Any] | None:
    try:
        action = json.loads(request.POST.get("action", ""))
    except ValueError:
        return None
    return action if isinstance(action, dict) else None


def _bad_action() -> str:
    return text("Непонятный ход.", "That is not a valid action.")


@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    """One move through the move service with the version the page showed; answers the new
    table fragment, with the engine's message when the move was refused."""
    action = _action_of(request)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1
    alert = ""
    alert_rule = ""
    status = 200
    if action is None or version < 0:
        alert, status = _bad_action(), 400
    else:
        try:
            game_services.make_move(
                game_id=game_id, user=_user(request), version=version, action=action
            )
        except ClubError as exc:
            refusal = refusal_of(exc)
            # A stale version is a double click or another tab: the fresh table says it all.
            alert = "" if refusal.code == "stale_version" else refusal.message
            alert_rule = refusal.rule
            status = refusal.status
    page = _table_or_404(request, game_id)
    if isinstance(page, HttpResponse):
        return page
    return render(
        request,
        "web/_table.html",
        {"page": page, "alert": alert, "alert_rule": alert_rule},
        status=status,
    )


def _selection_of(request: HttpRequest) -> tuple[list[str], list[list[str]]] | None:
    """`selection`: {"cards": [...], "groups": [[...], ...]}, codes as strings (the engine
    judges the codes themselves)."""
    try:
        selection = json.loads(request.POST.get("selection", ""))
    except ValueError:
        return None
    if not isinstance(selection, dict):
        return None
    cards, groups = selection.get("cards"), selection.get("groups", [])
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        return None
    if not isinstance(groups, list) or not all(
        isinstance(group, list) and all(isinstance(card, str) for card in group) for group in groups
    ):
        return None
    return cards, groups


@login_required
@require_POST
def preview(request: HttpRequest, game_id: int) -> HttpResponse:
    """What the selected cards would do, as the engine judges it (nothing is played): for a
    `selection`, each button's move with those cards; for an `action`, that action."""
    if "selection" in request.POST:
        selection = _selection_of(request)
        if selection is None:
            return JsonResponse({"legal": False, "message": _bad_action()}, status=400)
        cards, groups = selection
        judged = game_selectors.selection_preview(
            game_id=game_id, viewer=_user(request), cards=cards, groups=groups
        )
        if judged is None:
            return JsonResponse({"legal": False, "message": _bad_action()}, status=404)
        return JsonResponse(selectors.selection_answer(judged, cards))
    action = _action_of(request)
    if action is None:
        return JsonResponse({"legal": False, "message": _bad_action()}, status=400)
    answer = game_selectors.move_preview(game_id=game_id, viewer=_user(request), action=action)
    if answer is None:
        return JsonResponse({"legal": False, "message": _bad_action()}, status=404)
    return JsonResponse(
        {"legal": answer.legal, "message": selectors.preview_text(answer), "rule": answer.rule}
    )


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    invite = request.POST.get("invite", "")
    back = reverse("web:table", kwargs={"game_id": game_id})
    try:
        game_services.join_table(
            game_id=game_id, user=_user(request), seat=seat, invite_code=invite
        )
    except ClubError as exc:
        refusal = refusal_of(exc)
        return _table_with_alert(request, game_id, refusal.message, refusal.status)
    return redirect(back)


@login_required
@require_POST
def seat_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table's creator gives a free seat to a bot (games.services.seat_bot)."""
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    try:
        game_services.seat_bot(
            game_id=game_id, user=_user(request), seat=seat, level=request.POST.get("level", "")
        )
    except ClubError as exc:
        refusal = refusal_of(exc)
        return _table_with_alert(request, game_id, refusal.message, refusal.status)
    return redirect("web:table", game_id=game_id)


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = game_services.leave_table(game_id=game_id, user=_user(request))
    except ClubError as exc:
        refusal = refusal_of(exc)
        return _table_with_alert(request, game_id, refusal.message, refusal.status)
    if game is None:
        return redirect("web:lobby")
    return redirect("web:table", game_id=game_id)


def _table_with_alert(request: HttpRequest, game_id: int, alert: str, status: int) -> HttpResponse:
    page = _table_or_404(request, game_id)
    if isinstance(page, HttpResponse):
        return page
    return render(
        request,
        "web/table.html",
        {"page": page, "alert": alert, "live": settings.LIVE_EVENTS},
        status=status,
    )
