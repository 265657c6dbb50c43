"""The table (CONTRACT.md §4 /games/{id}/): the page, its fragment, moves and their previews,
joining, leaving and seating bots, the agreed pause, a finished game's afterwords and its
rematch, invitations to a waiting table, and the table's phrases.

Thin: forms in, services and web.table.shaping, templates out.
"""

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from accounts import services as account_services
from accounts.models import User
from club.errors import ClubError
from club.i18n import text
from games import selectors as game_selectors
from games import services as game_services
from games.models import Invitation
from games.services import pauses, presence
from games.store import LoadedGame
from moderation import services as moderation_services
from web.refusals import refusal_of
from web.shared import form_error, not_found, signed_in_user
from web.table import sentences, shaping
from web.table.forms import AfterwordForm, PauseForm


def _seen_table(request: HttpRequest, game_id: int) -> LoadedGame | None:
    """The game and its seats; a seated player looking at the table is at the table
    (R-CLUB-2), and is so on the table shown."""
    table = game_selectors.game_with_seats(game_id=game_id)
    seat = table.seat_of(request.user) if table and request.user.is_authenticated else None
    if table is not None and seat is not None:
        presence.mark_seen(seat=seat, now=table.now)
    return table


def _table_or_404(
    request: HttpRequest,
    game_id: int,
    table: LoadedGame | None = None,
    made: game_services.MoveResult | None = None,
) -> shaping.TablePage | HttpResponse:
    table = table or _seen_table(request, game_id)
    page = (
        None
        if table is None
        else shaping.table_page(
            table=table,
            viewer=request.user,
            invite_code=request.GET.get("invite", ""),
            made=made,
        )
    )
    return not_found(request) if page is None else page


def table(request: HttpRequest, game_id: int) -> HttpResponse:
    page = _table_or_404(request, game_id)
    if isinstance(page, HttpResponse):
        return page
    return render(request, "web/table.html", {"page": page, "live": settings.LIVE_EVENTS})


@require_GET
def table_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table as the caller's seat sees it, for the page to swap in after an event. A poll
    while nothing the caller sees changed is a 304 after one read of the game and its seats
    (shaping.fragment_etag; django.views.decorators.http.condition's own check, here after the
    read the answer reuses)."""
    table = _seen_table(request, game_id)
    etag = (
        None
        if table is None
        else shaping.fragment_etag(
            table=table, viewer=request.user, invite_code=request.GET.get("invite", "")
        )
    )
    if etag is not None and (unchanged := get_conditional_response(request, etag=etag)):
        return unchanged
    page = _table_or_404(request, game_id, table)
    if isinstance(page, HttpResponse):
        return page
    response = render(request, "web/_table.html", {"page": page})
    response.headers["Cache-Control"] = "private, no-cache"
    if etag is not None:
        response.headers["ETag"] = etag
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
    made = None
    if action is None or version < 0:
        alert, status = _bad_action(), 400
    else:
        try:
            made = game_services.make_move(
                game_id=game_id, user=signed_in_user(request), version=version, action=action
            )
        except ClubError as exc:
            refusal = refusal_of(exc)
            # A stale version is a double click or another tab: the fresh table says it all.
            alert = "" if refusal.code == "stale_version" else refusal.message
            alert_rule = refusal.rule
            status = refusal.status
    if isinstance(made, game_services.MoveResult):
        # The table as the move left it: the service's own, with the state it parsed and the
        # moves it wrote, not read again. The mover is seen (a seat back at the table too).
        presence.mark_seen(seat=made.seat, now=made.table.now)
        page = _table_or_404(request, game_id, made.table, made=made)
    else:
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
            game_id=game_id, viewer=signed_in_user(request), cards=cards, groups=groups
        )
        if judged is None:
            return JsonResponse({"legal": False, "message": _bad_action()}, status=404)
        return JsonResponse(sentences.selection_answer(judged, cards))
    action = _action_of(request)
    if action is None:
        return JsonResponse({"legal": False, "message": _bad_action()}, status=400)
    answer = game_selectors.move_preview(
        game_id=game_id, viewer=signed_in_user(request), action=action
    )
    if answer is None:
        return JsonResponse({"legal": False, "message": _bad_action()}, status=404)
    return JsonResponse(
        {"legal": answer.legal, "message": sentences.preview_text(answer), "rule": answer.rule}
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
            game_id=game_id, user=signed_in_user(request), seat=seat, invite_code=invite
        )
    except ClubError as exc:
        return _refused(request, game_id, exc)
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
            game_id=game_id,
            user=signed_in_user(request),
            seat=seat,
            level=request.POST.get("level", ""),
        )
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return redirect("web:table", game_id=game_id)


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = game_services.leave_table(game_id=game_id, user=signed_in_user(request))
    except ClubError as exc:
        return _refused(request, game_id, exc)
    if game is None:
        return redirect("web:lobby")
    return redirect("web:table", game_id=game_id)


def _refused(request: HttpRequest, game_id: int, exc: ClubError) -> HttpResponse:
    refusal = refusal_of(exc)
    if _from_the_table_script(request):
        return _fragment(request, game_id, alert=refusal.message, status=refusal.status)
    return _table_with_alert(request, game_id, refusal.message, refusal.status)


def _from_the_table_script(request: HttpRequest) -> bool:
    """A form the table's script sent (table.js): it swaps in the fragment it gets back."""
    return request.headers.get("X-Requested-With") == "fetch"


def _fragment(
    request: HttpRequest, game_id: int, *, alert: str = "", status: int = 200
) -> HttpResponse:
    page = _table_or_404(request, game_id)
    if isinstance(page, HttpResponse):
        return page
    return render(request, "web/_table.html", {"page": page, "alert": alert}, status=status)


def _back_to_the_table(request: HttpRequest, game_id: int) -> HttpResponse:
    """After a table form: the fresh fragment for the table's script, else the table page."""
    if _from_the_table_script(request):
        return _fragment(request, game_id)
    return redirect("web:table", game_id=game_id)


def _table_form(request: HttpRequest, game_id: int, act: Callable[[User], object]) -> HttpResponse:
    """A table form's service call for the signed-in player, then back to the table (the
    refusal shown there)."""
    try:
        act(signed_in_user(request))
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return _back_to_the_table(request, game_id)


# ----------------------------------------------------------------------------- the table's rhythm


@login_required
@require_POST
def close_deal_summary(request: HttpRequest, game_id: int) -> HttpResponse:
    """«Дальше»: the player has read the finished deal's score."""
    return _table_form(
        request,
        game_id,
        lambda user: game_services.close_deal_summary(game_id=game_id, user=user),
    )


@login_required
@require_POST
def ask_pace(request: HttpRequest, game_id: int) -> HttpResponse:
    """Play the rest of the game at the other pace (`mode`), once every person agrees."""
    mode = request.POST.get("mode", "")
    return _table_form(
        request,
        game_id,
        lambda user: game_services.ask_pace(game_id=game_id, user=user, mode=mode),
    )


@login_required
@require_POST
def change_bot_level(request: HttpRequest, game_id: int) -> HttpResponse:
    level = request.POST.get("level", "")
    return _table_form(
        request,
        game_id,
        lambda user: game_services.change_bot_level(game_id=game_id, user=user, level=level),
    )


@login_required
@require_POST
def hand_seat_to_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    """The player leaves the game under way to a club-level bot; back to the lobby."""
    try:
        game_services.hand_seat_to_bot(game_id=game_id, user=signed_in_user(request))
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return redirect("web:lobby")


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


# ----------------------------------------------------------------------------- the agreed pause


@login_required
@require_POST
def ask_pause(request: HttpRequest, game_id: int) -> HttpResponse:
    form = PauseForm(request.POST)
    if not form.is_valid():
        return _table_with_alert(request, game_id, form_error(form), 400)
    try:
        pauses.ask_pause(
            game_id=game_id, user=signed_in_user(request), days=form.cleaned_data["days"]
        )
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return redirect("web:table", game_id=game_id)


@login_required
@require_POST
def accept_pause(request: HttpRequest, game_id: int) -> HttpResponse:
    return _vote_on_pause(request, game_id, pauses.accept_pause)


@login_required
@require_POST
def resume_pause(request: HttpRequest, game_id: int) -> HttpResponse:
    return _vote_on_pause(request, game_id, pauses.resume_pause)


def _vote_on_pause(request: HttpRequest, game_id: int, vote: Callable[..., object]) -> HttpResponse:
    try:
        vote(game_id=game_id, user=signed_in_user(request))
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return redirect("web:table", game_id=game_id)


# ----------------------------------------------------------------------------- afterwords


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
                author=signed_in_user(request),
                to=form.cleaned_data["to"],
                text=form.cleaned_data["text"],
                partner_id=form.cleaned_data["partner"],
            )
        except ClubError as error:
            messages.error(request, error.message)
    return redirect(reverse("web:table", kwargs={"game_id": game_id}) + "#afterwords")


# ----------------------------------------------------------------------------- rematch (#37)


@login_required
@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """«Сыграть ещё» (CONTRACT.md §4's `[data-result]`): the rematch service, landing on the new
    table (the one another player opened already, if so, with the viewer's seat taken)."""
    try:
        made = game_services.rematch(game_id=game_id, user=signed_in_user(request))
    except ClubError as exc:
        return _refused(request, game_id, exc)
    return redirect("web:table", game_id=made.table.game.pk)


# ----------------------------------------------------------------------------- invitations


def _invitation_answer(
    request: HttpRequest, invitation_id: int, answer: Callable[..., Invitation]
) -> HttpResponse:
    """Decline or withdraw an invitation; back to its table (or wherever the form says)."""
    user = signed_in_user(request)
    try:
        invitation = answer(invitation_id=invitation_id, user=user)
    except ClubError as exc:
        messages.error(request, refusal_of(exc).message)
        return redirect(_back(request, reverse("web:lobby")))
    return redirect(_back(request, reverse("web:table", kwargs={"game_id": invitation.game_id})))


def _back(request: HttpRequest, default: str) -> str:
    back = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})
    return back if back and safe else default


@login_required
@require_POST
def accept_invitation(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Sit at the seat kept for the viewer (the same service as joining it)."""
    user = signed_in_user(request)
    try:
        invitation = game_services.invitation_to_accept(invitation_id=invitation_id, user=user)
    except ClubError as exc:
        messages.error(request, refusal_of(exc).message)
        return redirect(_back(request, reverse("web:lobby")))
    try:
        game_services.join_table(game_id=invitation.game_id, user=user, seat=invitation.seat)
    except ClubError as exc:
        return _refused(request, invitation.game_id, exc)
    return redirect("web:table", game_id=invitation.game_id)


@login_required
@require_POST
def decline_invitation(request: HttpRequest, invitation_id: int) -> HttpResponse:
    return _invitation_answer(request, invitation_id, game_services.decline_invitation)


@login_required
@require_POST
def withdraw_invitation(request: HttpRequest, invitation_id: int) -> HttpResponse:
    return _invitation_answer(request, invitation_id, game_services.withdraw_invitation)


# ----------------------------------------------------------------------------- table phrases


def _fetched(request: HttpRequest) -> bool:
    """Sent by the page's script (which shows the answer in place), not by a plain form."""
    return request.headers.get("X-Requested-With") == "fetch"


@login_required
@require_POST
def say_phrase(request: HttpRequest, game_id: int) -> HttpResponse:
    """One of the table's phrases to the whole table; the table's pages see it through their
    live stream. The page's script gets 204, or the refusal's message with its status."""
    try:
        game_services.say_phrase(
            game_id=game_id, user=signed_in_user(request), phrase=request.POST.get("phrase", "")
        )
    except ClubError as exc:
        if _fetched(request):
            refusal = refusal_of(exc)
            return JsonResponse({"message": refusal.message}, status=refusal.status)
        return _refused(request, game_id, exc)
    if _fetched(request):
        return HttpResponse(status=204)
    return redirect("web:table", game_id=game_id)


@login_required
@require_POST
def mute_phrases(request: HttpRequest, game_id: int) -> HttpResponse:
    """The viewer's switch: the other players' phrases shown or not (everywhere)."""
    account_services.update_profile(
        request=request,
        user=signed_in_user(request),
        phrases_muted=request.POST.get("muted") == "1",
    )
    return redirect("web:table", game_id=game_id)
