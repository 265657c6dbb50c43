"""The ASGI entry point: `uvicorn canasta_club.asgi:application`, for the live pages' event
streams (/games/{id}/events/, web.table.events.asgi_stream; /tournaments/{id}/events/,
web.tournaments.events.asgi_stream), which stay open for as long as a page
is (thousands per process, where a WSGI worker would hold a thread each). Everything else is
Django's as usual; production serves pages and the API from gunicorn (canasta_club.wsgi)."""

import os
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canasta_club.settings")

django_application = get_asgi_application()

# Both need the apps loaded by get_asgi_application.
from web.table import events  # noqa: E402
from web.tournaments import events as tournament_events  # noqa: E402


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    live = scope["type"] == "http" and settings.LIVE_EVENTS
    if live and events.EVENTS_PATH.match(scope["path"]):
        await events.asgi_stream(scope, receive, send)
    elif live and tournament_events.EVENTS_PATH.match(scope["path"]):
        await tournament_events.asgi_stream(scope, receive, send)
    else:
        await django_application(scope, receive, send)
