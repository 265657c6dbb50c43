"""A player's card (CONTRACT.md §4 /users/{id}/) and «Пожаловаться», its report form."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from club.errors import ClubError, status_of
from moderation import services as moderation_services
from web.players import shaping
from web.players.forms import ReportForm
from web.shared import not_found, signed_in_user


def player_card(request: HttpRequest, user_id: int) -> HttpResponse:
    return _card_page(request, user_id, form=ReportForm(), status=200)


def _card_page(
    request: HttpRequest, user_id: int, *, form: ReportForm, status: int
) -> HttpResponse:
    card = shaping.player_card(player_id=user_id, viewer=request.user)  # type: ignore[arg-type]
    if card is None:
        return not_found(request)
    return render(request, "web/player.html", {"card": card, "form": form}, status=status)


@login_required
@require_POST
def report_player(request: HttpRequest, user_id: int) -> HttpResponse:
    """«Пожаловаться»: an anonymous report through the same service as the API."""
    form = ReportForm(request.POST)
    if form.is_valid():
        try:
            moderation_services.create_report(
                reporter=signed_in_user(request),
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
