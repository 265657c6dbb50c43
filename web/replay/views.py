"""A finished game's replay, step by step."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import selectors as game_selectors
from web.replay import shaping
from web.shared import not_found


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game step by step: ?step=n is the position after n moves."""
    table = game_selectors.game_with_seats(game_id=game_id)
    if (
        table is None
        or not game_selectors.may_see(table=table, viewer=request.user)  # type: ignore[arg-type]
        or not table.game.is_over
        # A duplicate round's deals are still being played at its other tables.
        or table.game.sealed
    ):
        return not_found(request)
    # A step that names no move (?step=abc, -5, 999) shows the nearest position and says so.
    asked = request.GET.get("step", "0").strip()
    try:
        step = int(asked)
    except ValueError:
        step = 0
    frame = shaping.replay_page(table=table, step=step)
    note = shaping.replay_step_note(asked=asked, shown=frame["step"], total=frame["total"])
    return render(
        request, "web/replay.html", {"game": table.game, "frame": frame, "step_note": note}
    )
