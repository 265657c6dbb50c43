"""`/ratings/`: the pools' leaderboards, a page of places at a time, your own place marked."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from club import clock
from ratings import pools
from web.ratings import shaping
from web.shared import not_found


@require_GET
def ratings(request: HttpRequest) -> HttpResponse:
    pool = request.GET.get("pool") or pools.DEFAULT_POOL
    if pool not in pools.POOLS:
        return not_found(request)
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
    board = shaping.leaderboard(
        pool=pool,
        page=page,
        viewer=request.user,  # anonymous: no place to mark
        now=clock.now(),
    )
    return render(request, "web/ratings.html", {"board": board})
