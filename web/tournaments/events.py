"""A tournament page's stream: "the tournament changed, version n" (tournaments.services.live),
served as the table pages' streams are (web.table.events: canasta_club.asgi routes the path
here). A tournament is public: any visitor may follow one; an unknown one is a 404."""

import re
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse

from games import live
from tournaments.models import Tournament
from tournaments.services.live import TOPIC
from web.table import events

EVENTS_PATH = re.compile(r"^/tournaments/(?P<tournament_id>[0-9]{1,18})/events/$")


def _watcher(tournament_id: int) -> events.Watcher | None:
    try:
        if not Tournament.objects.filter(pk=tournament_id).exists():
            return None
        return events.Watcher(channel=live.topic_channel(TOPIC, tournament_id))
    finally:
        connection.close()


async def asgi_stream(scope: dict[str, Any], receive: Any, send: Any) -> None:
    match = EVENTS_PATH.match(scope["path"])
    assert match is not None
    await events.serve_stream(scope, receive, send, lambda: _watcher(int(match["tournament_id"])))


def stream(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The path's answer wherever the ASGI endpoint does not serve it: 503, and the page polls
    its fragment instead (as web.table.events.stream)."""
    return events.stream(request, tournament_id)
