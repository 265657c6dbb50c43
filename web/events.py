"""Server-Sent Events for the live pages: "game changed, version n", and nothing else.

Served by uvicorn (canasta_club.asgi). One Redis pub/sub subscription per process fans the
announcements of games.live out to the streams of that process. An open stream of a seated
player in a live game keeps the seat present (R-CLUB-2): closing the tab stops it, and the
60-second wait begins; reopening the page reclaims the seat.
"""

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase

from accounts.models import User
from games import live, presence, selectors
from games.models import Game

logger = logging.getLogger(__name__)

# A comment line this often keeps proxies from closing an idle stream.
KEEPALIVE_SECONDS = 15.0
# A live seat is absent after 60 s unseen; the stream marks it seen well within that.
PRESENCE_SECONDS = 25.0
# A page that falls behind by this many announcements only needs the latest one.
QUEUE_SIZE = 8
READY_TIMEOUT_SECONDS = 2.0


class Hub:
    """The process's subscription to every game's channel, and the streams listening."""

    def __init__(self) -> None:
        self.listeners: dict[int, set[asyncio.Queue[int | None]]] = {}
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def subscribe(self, game_id: int) -> asyncio.Queue[int | None]:
        queue: asyncio.Queue[int | None] = asyncio.Queue(maxsize=QUEUE_SIZE)
        self.listeners.setdefault(game_id, set()).add(queue)
        if self.task is None or self.task.done():
            self.ready.clear()
            self.task = asyncio.get_running_loop().create_task(self._listen())
        return queue

    def unsubscribe(self, game_id: int, queue: asyncio.Queue[int | None]) -> None:
        queues = self.listeners.get(game_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.listeners[game_id]

    def _deliver(self, game_id: int, version: int | None) -> None:
        for queue in list(self.listeners.get(game_id, ())):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)

    async def _listen(self) -> None:
        client = aioredis.Redis.from_url(settings.REDIS_URL)
        pubsub = client.pubsub()
        try:
            await pubsub.psubscribe(live.channel_pattern())
            self.ready.set()
            async for message in pubsub.listen():
                if message["type"] == "pmessage":
                    game_id = int(message["channel"].rsplit(b":", 1)[1])
                    self._deliver(game_id, int(message["data"]))
        except (redis.RedisError, OSError):
            logger.warning("Live announcements lost their Redis connection", exc_info=True)
        finally:
            # Every stream of this process ends: the pages show "reconnecting", poll, and
            # open a new stream (which subscribes afresh).
            for game_id in list(self.listeners):
                self._deliver(game_id, None)
            self.ready.clear()
            await pubsub.aclose()
            await client.aclose()


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def _hub() -> Hub:
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]


@dataclass(frozen=True)
class _Watcher:
    game_id: int
    user: User | None  # set for a seated player of a live game: the stream keeps them present


def _watcher(game_id: int, user: User | None) -> _Watcher | None:
    """The same visibility as the table page; None when it is hidden or missing."""
    game = selectors.game_with_seats(game_id=game_id)
    if game is None:
        return None
    if game.private and (
        user is None or not selectors.may_see(game=game, viewer=user, invite_code="")
    ):
        return None
    seated = user is not None and selectors.seat_row_of(game=game, user=user) is not None
    present = seated and game.mode == Game.Mode.LIVE and game.status == Game.Status.ACTIVE
    return _Watcher(game_id=game_id, user=user if present else None)


def _mark_present(watcher: _Watcher) -> None:
    if watcher.user is not None:
        presence.reclaim_seat(game_id=watcher.game_id, user=watcher.user)


def _event(version: int) -> bytes:
    return f"event: changed\ndata: {json.dumps({'version': version})}\n\n".encode()


async def _events(watcher: _Watcher) -> AsyncIterator[bytes]:
    hub = _hub()
    queue = hub.subscribe(watcher.game_id)
    loop = asyncio.get_running_loop()
    try:
        # The page resyncs when the stream opens, so nothing it missed before is lost.
        await asyncio.wait_for(hub.ready.wait(), READY_TIMEOUT_SECONDS)
        await sync_to_async(_mark_present)(watcher)
        present_at = loop.time()
        yield b"retry: 2000\n: ready\n\n"
        while True:
            try:
                version = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield b": keepalive\n\n"
            else:
                if version is None:
                    return
                yield _event(version)
            if watcher.user is not None and loop.time() - present_at >= PRESENCE_SECONDS:
                await sync_to_async(_mark_present)(watcher)
                present_at = loop.time()
    except TimeoutError:
        logger.warning("Live announcements are not subscribed; the page polls meanwhile")
    finally:
        hub.unsubscribe(watcher.game_id, queue)


async def stream(request: HttpRequest, game_id: int) -> HttpResponseBase:
    """GET /games/{id}/events/: 503 where no stream can be held (no Redis, or a WSGI server):
    the page then polls its table fragment."""
    if not settings.LIVE_EVENTS or "wsgi.version" in request.META:
        return HttpResponse(status=503, headers={"Retry-After": "30"})
    user = await request.auser()
    watcher = await sync_to_async(_watcher)(
        game_id,
        user if user.is_authenticated else None,
    )
    if watcher is None:
        return HttpResponse(status=404)
    return StreamingHttpResponse(
        _events(watcher),
        content_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
