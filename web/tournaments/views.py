"""The tournaments' pages: the list with the form to open one, and a tournament's page with its
entries, standings and rounds, where one enters, leaves or (its creator) starts it."""

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from club.errors import ClubError
from club.i18n import text
from tournaments import services
from tournaments.models import Tournament
from web.shared import form_error, not_found, signed_in_user
from web.tournaments.forms import TABLE_NAMES, EnterForm, OpenTournamentForm
from web.tournaments.shaping import tournament_lists, tournament_page


def _list_page(request: HttpRequest, form: OpenTournamentForm, *, status: int) -> HttpResponse:
    context = {
        "form": form,
        "tables": [(key, text(*names)) for key, names in TABLE_NAMES.items()],
        **tournament_lists(),
    }
    return render(request, "web/tournaments.html", context, status=status)


@require_GET
def tournaments(request: HttpRequest) -> HttpResponse:
    form = OpenTournamentForm(
        initial={"mode": "async", "format": "swiss", "rounds": 5, "table": "classic"}
    )
    return _list_page(request, form, status=200)


@login_required
@require_POST
def open_tournament(request: HttpRequest) -> HttpResponse:
    form = OpenTournamentForm(request.POST)
    if form.is_valid():
        user = signed_in_user(request)
        try:
            tournament = services.create_tournament(
                user=user, spec=form.spec(time_zone=user.time_zone)
            )
        except ClubError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("web:tournament", tournament_id=tournament.pk)
    return _list_page(request, form, status=400)


def _viewer(request: HttpRequest) -> User | None:
    viewer = request.user if request.user.is_authenticated else None
    assert viewer is None or isinstance(viewer, User)
    return viewer


@require_GET
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    found = Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()
    if found is None:
        return not_found(request)
    page = tournament_page(tournament=found, viewer=_viewer(request))
    return render(
        request,
        "web/tournament.html",
        {"page": page, "enter_form": EnterForm(), "live": settings.LIVE_EVENTS},
    )


@require_GET
def tournament_fragment(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The page's live parts (its state, standings, rounds and entries) for the page to swap in
    when the tournament's stream says it changed, or when it polls. Unchanged since the page's
    copy (the same version, viewer and language): 304 after one read of the version."""
    version = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if version is None:
        return not_found(request)
    viewer = _viewer(request)
    # Who looks (their entry and games are marked) and in which language, besides the version.
    etag = f'"{version}.{viewer.pk if viewer else 0}.{request.LANGUAGE_CODE}"'
    if unchanged := get_conditional_response(request, etag=etag):
        return unchanged
    found = Tournament.objects.select_related("created_by").get(pk=tournament_id)
    page = tournament_page(tournament=found, viewer=viewer)
    response = render(request, "web/_tournament_fragment.html", {"page": page})
    response.headers["Cache-Control"] = "private, no-cache"
    # The version read first: a change between the two reads only costs the next poll a body.
    response.headers["ETag"] = etag
    return response


def _back(request: HttpRequest, tournament_id: int, *, error: str) -> HttpResponse:
    messages.error(request, error)
    return redirect("web:tournament", tournament_id=tournament_id)


def _act(
    request: HttpRequest, tournament_id: int, act: Callable[[], object], *, done: str
) -> HttpResponse:
    """Runs a service on the tournament; back to its page with what happened (or why not)."""
    try:
        act()
    except ClubError as exc:
        return _back(request, tournament_id, error=exc.message)
    messages.success(request, done)
    return redirect("web:tournament", tournament_id=tournament_id)


@login_required
@require_POST
def enter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    form = EnterForm(request.POST)
    if not form.is_valid():
        return _back(request, tournament_id, error=form_error(form))
    partner_name = form.cleaned_data["partner"].strip()
    partner_id = None
    if partner_name:
        partner = User.objects.filter(username__iexact=partner_name).first()
        if partner is None:
            return _back(
                request,
                tournament_id,
                error=text(
                    f"Нет игрока с именем «{partner_name}».",
                    f"No player is called “{partner_name}”.",
                ),
            )
        partner_id = partner.pk
    return _act(
        request,
        tournament_id,
        lambda: services.join_tournament(
            tournament_id=tournament_id, user=signed_in_user(request), partner_id=partner_id
        ),
        done=text("Заявка принята.", "Your entry is in."),
    )


@login_required
@require_POST
def leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.leave_tournament(
            tournament_id=tournament_id, user=signed_in_user(request)
        ),
        done=text("Вы больше не участвуете.", "You have left."),
    )


@login_required
@require_POST
def start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.start_tournament(
            tournament_id=tournament_id, user=signed_in_user(request)
        ),
        done=text(
            "Турнир начался: столы первого тура открыты.",
            "The tournament has begun: the first round's tables are open.",
        ),
    )
