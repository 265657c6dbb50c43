"""People: the players one follows (who is online now, who waits for a game and where), and
following or blocking a player from their card; the profile lists the players one blocked,
each unblocked from there. The same services as the API (social)."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from club.errors import ClubError
from club.i18n import text
from social import services as social_services
from web.people.shaping import following_page
from web.shared import signed_in_user


@login_required
def following(request: HttpRequest) -> HttpResponse:
    """The people one follows, online first; a row's «Отписаться» posts the list's one form."""
    user = signed_in_user(request)
    if request.method == "POST":
        player_id = request.POST.get("unfollow", "")
        if player_id.isdigit():
            social_services.unfollow(user=user, player_id=int(player_id))
        return redirect("web:following")
    return render(
        request, "web/following.html", following_page(user=user, page=request.GET.get("page"))
    )


def _change(
    request: HttpRequest,
    user_id: int,
    change: Callable[..., bool],
    done: tuple[str, str],
) -> HttpResponse:
    """Back to the page of the form (`next`: the list, the profile), which shows the change
    itself; else to the player's card, which says what changed (or why not)."""
    back = request.POST.get("next", "")
    listed = bool(back) and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}
    )
    try:
        change(user=signed_in_user(request), player_id=user_id)
    except ClubError as error:
        messages.error(request, error.message)
    else:
        if not listed:
            messages.success(request, text(*done))
    return redirect(back if listed else reverse("web:player", kwargs={"user_id": user_id}))


@login_required
@require_POST
def follow(request: HttpRequest, user_id: int) -> HttpResponse:
    """«Следить» / «Не следить» (`action` follow or unfollow) from a player's card or the list."""
    if request.POST.get("action") == "unfollow":
        return _change(
            request,
            user_id,
            social_services.unfollow,
            ("Вы больше не следите за игроком.", "You no longer follow this player."),
        )
    return _change(
        request,
        user_id,
        social_services.follow,
        (
            "Вы подписаны: в «Моих подписках» видно, кто в клубе и кто ждёт игры.",
            "You follow this player: “People I follow” shows who is here and who waits to play.",
        ),
    )


@login_required
@require_POST
def block(request: HttpRequest, user_id: int) -> HttpResponse:
    """«Заблокировать» / «Разблокировать» (`action` block or unblock), privately."""
    if request.POST.get("action") == "unblock":
        return _change(
            request,
            user_id,
            social_services.unblock,
            ("Блокировка снята.", "The player is unblocked."),
        )
    return _change(
        request,
        user_id,
        social_services.block,
        (
            "Игрок заблокирован. Он об этом не узнает; снять блокировку можно в профиле.",
            "The player is blocked. They will not be told; unblock them from your profile.",
        ),
    )
