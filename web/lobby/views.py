"""The lobby: your games, your tables waiting for players, open tables, and opening a table."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from canasta_club import clock
from canasta_club.errors import ClubError
from games import services as game_services
from web.lobby.forms import TARGETS, OpenTableForm
from web.lobby.shaping import lobby_sections, my_ratings
from web.refusals import refusal_of
from web.shared import signed_in_user


def lobby(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "web/welcome.html")
    form = OpenTableForm(initial={"mode": "async", "length": "match"})
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
    form = OpenTableForm(request.POST)
    if form.is_valid():
        try:
            game = game_services.open_table(
                user=signed_in_user(request),
                mode=form.cleaned_data["mode"],
                length=form.cleaned_data["length"],
                rules=form.rules_options(),
                private=form.cleaned_data["private"],
                seat=form.cleaned_data["seat"],
                rated=form.is_rated(),
                rating_range=form.rating_range(),
            )
        except ClubError as exc:
            form.add_error(None, refusal_of(exc).message)
        else:
            return redirect("web:table", game_id=game.pk)
    return _lobby_page(request, form, status=400)
