"""Server-Sent Events for the live pages: "game changed, version n", and nothing else.

Served by uvicorn (canasta_club.asgi). One Redis pub/sub subscription per process fans the
announcements of games.live out to the streams of that process. An open stream of a seated
player in a live game keeps the seat present (R-CLUB-2): the process marks all such seats seen
in one statement every PRESENCE_SECONDS; closing the tab takes the seat out, and the 60-second
wait begins; reopening the page reclaims the seat at once.
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
# A live seat is absent after 60 s unseen; open streams mark theirs seen well within that.
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
        # Seat id -> how many open streams of that seat (two tabs are one player).
        self.present: dict[int, int] = {}
        self.presence_task: asyncio.Task[None] | None = None

    def hold_seat(self, seat_id: int) -> None:
        self.present[seat_id] = self.present.get(seat_id, 0) + 1
        if self.presence_task is None or self.presence_task.done():
            self.presence_task = asyncio.get_running_loop().create_task(self._keep_present())

    def release_seat(self, seat_id: int) -> None:
        self.present[seat_id] -= 1
        if not self.present[seat_id]:
            del self.present[seat_id]

    async def _keep_present(self) -> None:
        while self.present:
            await asyncio.sleep(PRESENCE_SECONDS)
            try:
                await sync_to_async(presence.mark_seats_seen)(seat_ids=set(self.present))
            except Exception:
                logger.exception("Could not mark the open tables' seats seen")

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
    # A seated player of a live game: the stream keeps them present.
    user: User | None
    seat_id: int | None


def _watcher(game_id: int, user: User | None) -> _Watcher | None:
    """The same visibility as the table page; None when it is hidden or missing."""
    game = selectors.game_with_seats(game_id=game_id)
    if game is None:
        return None
    if game.private and (
        user is None or not selectors.may_see(game=game, viewer=user, invite_code="")
    ):
        return None
    seat = selectors.seat_row_of(game=game, user=user) if user is not None else None
    if seat is None or game.mode != Game.Mode.LIVE or game.status != Game.Status.ACTIVE:
        return _Watcher(game_id=game_id, user=None, seat_id=None)
    return _Watcher(game_id=game_id, user=user, seat_id=seat.pk)


def _reclaim(watcher: _Watcher) -> None:
    assert watcher.user is not None
    presence.reclaim_seat(game_id=watcher.game_id, user=watcher.user)


def _event(version: int) -> bytes:
    return f"event: changed\ndata: {json.dumps({'version': version})}\n\n".encode()


async def _events(watcher: _Watcher) -> AsyncIterator[bytes]:
    hub = _hub()
    queue = hub.subscribe(watcher.game_id)
    if watcher.seat_id is not None:
        hub.hold_seat(watcher.seat_id)
    try:
        # The page resyncs when the stream opens, so nothing it missed before is lost.
        await asyncio.wait_for(hub.ready.wait(), READY_TIMEOUT_SECONDS)
        if watcher.seat_id is not None:
            await sync_to_async(_reclaim)(watcher)
        yield b"retry: 2000\n: ready\n\n"
        while True:
            try:
                version = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield b": keepalive\n\n"
                continue
            if version is None:
                return
            yield _event(version)
    except TimeoutError:
        logger.warning("Live announcements are not subscribed; the page polls meanwhile")
    finally:
        hub.unsubscribe(watcher.game_id, queue)
        if watcher.seat_id is not None:
            hub.release_seat(watcher.seat_id)


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
