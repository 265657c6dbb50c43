"""The lobby: your games, your tables waiting for players, open tables, and opening a table."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from club import clock
from club.errors import ClubError
from games import services as game_services
from games.models import Game
from web.lobby.forms import TARGETS, OpenTableForm, PlayWithBotsForm
from web.lobby.shaping import invitable, lobby_sections, my_ratings
from web.refusals import refusal_of
from web.shared import signed_in_user


def lobby(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "web/welcome.html")
    user = signed_in_user(request)
    form = OpenTableForm(
        initial={"mode": "async", "length": "match"}, followed=invitable(user=user)
    )
    return _lobby_page(request, form, status=200)


# `?tables=` of the open tables: all of them, or those whose rating range holds yours.
FOR_MY_RATING = "for-my-rating"


def _lobby_page(request: HttpRequest, form: OpenTableForm, *, status: int) -> HttpResponse:
    for_my_rating = request.GET.get("tables") == FOR_MY_RATING
    context = {
        "form": form,
        "targets": TARGETS,
        # The rows' "в запасе 3 часа" and "уже 1 минуту", on the club's clock read once.
        "now": clock.now(),
        "for_my_rating": for_my_rating,
        "my_ratings": my_ratings(user=signed_in_user(request))[:2],
        **lobby_sections(user=signed_in_user(request), for_my_rating=for_my_rating),
    }
    return render(request, "web/lobby.html", context, status=status)


@login_required
@require_POST
def open_table(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    form = OpenTableForm(request.POST, followed=invitable(user=user))
    if form.is_valid():
        try:
            game = game_services.open_table(
                user=user,
                mode=form.cleaned_data["mode"],
                length=form.cleaned_data["length"],
                rules=form.rules_options(),
                private=form.cleaned_data["private"],
                seat=form.cleaned_data["seat"],
                invite=form.invitee_ids(),
                rated=form.is_rated(),
                rating_range=form.rating_range(),
            )
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
        else:
            return redirect("web:table", game_id=game.pk)
    return _lobby_page(request, form, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def play_with_bots(request: HttpRequest) -> HttpResponse:
    """«Играть с ботами»: a live match of the club's Canasta with three club-level bots, started
    at once, landing on its table (the lobby's button posts here as it is); the page asked for
    (the welcome's button, after signing up) is the short step with the pace and the level."""
    form = PlayWithBotsForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            game = game_services.play_with_bots(
                user=signed_in_user(request),
                mode=form.cleaned_data["mode"] or Game.Mode.LIVE,
                level=form.cleaned_data["level"] or game_services.DEFAULT_BOT_LEVEL,
            )
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
        else:
            return redirect("web:table", game_id=game.pk)
    status = 400 if form.errors else 200
    return render(request, "web/play_with_bots.html", {"form": form}, status=status)
