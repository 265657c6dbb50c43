"""Server-Sent Events for the live pages: "game changed, version n", and nothing else.

Served by uvicorn (canasta_club.asgi). One Redis pub/sub subscription per process fans the
announcements of games.live (every topic's: a table's, a tournament's) out to the streams of
that process, each stream listening to one channel (`serve_stream`; a tournament's page's
stream is web.tournaments.events'). An open stream of a seated
player in a live game keeps the seat present (R-CLUB-2): the process marks all such seats seen
in one statement every PRESENCE_SECONDS; closing the tab takes the seat out, and the 60-second
wait begins; reopening the page reclaims the seat at once.
"""

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from importlib import import_module
from typing import Any

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import auth
from django.db import connection
from django.http import HttpRequest, HttpResponse

from accounts.models import User
from games import live, selectors
from games.models import Game
from games.services import presence

logger = logging.getLogger(__name__)

# A comment line this often keeps proxies (whose idle timeout is often 60 s) from closing an
# idle stream.
KEEPALIVE_SECONDS = 25.0
# A live seat is absent after 60 s unseen; open streams mark theirs seen well within that.
PRESENCE_SECONDS = 25.0
# A page that falls behind by this many announcements only needs the latest one.
QUEUE_SIZE = 8
READY_TIMEOUT_SECONDS = 2.0


class Hub:
    """The process's subscription to every game's channel, and the streams listening."""

    def __init__(self) -> None:
        # Channel -> the queues of the streams listening to it.
        self.listeners: dict[str, set[asyncio.Queue[int | None]]] = {}
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        # Seat id -> how many open streams of that seat (two tabs are one player).
        self.present: dict[int, int] = {}
        self.presence_task: asyncio.Task[None] | None = None

    def hold_seat(self, seat_id: int) -> None:
        self.present[seat_id] = self.present.get(seat_id, 0) + 1
        if self.presence_task is None or self.presence_task.done():
            self.presence_task = asyncio.get_running_loop().create_task(self._keep_present())

    def release_seat(self, seat_id: int) -> bool:
        """True when that was the seat's last open stream in this process."""
        self.present[seat_id] -= 1
        if not self.present[seat_id]:
            del self.present[seat_id]
            return True
        return False

    async def _keep_present(self) -> None:
        while self.present:
            await asyncio.sleep(PRESENCE_SECONDS)
            try:
                await sync_to_async(_mark_seats_seen, thread_sensitive=False)(set(self.present))
            except Exception:
                logger.exception("Could not mark the open tables' seats seen")

    def subscribe(self, channel: str) -> asyncio.Queue[int | None]:
        queue: asyncio.Queue[int | None] = asyncio.Queue(maxsize=QUEUE_SIZE)
        self.listeners.setdefault(channel, set()).add(queue)
        if self.task is None or self.task.done():
            self.ready.clear()
            self.task = asyncio.get_running_loop().create_task(self._listen())
        return queue

    def unsubscribe(self, channel: str, queue: asyncio.Queue[int | None]) -> None:
        queues = self.listeners.get(channel)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.listeners[channel]

    def _deliver(self, channel: str, version: int | None) -> None:
        for queue in list(self.listeners.get(channel, ())):
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
                    self._deliver(message["channel"].decode(), int(message["data"]))
        except (redis.RedisError, OSError):
            logger.warning("Live announcements lost their Redis connection", exc_info=True)
        finally:
            # Every stream of this process ends: the pages show "reconnecting", poll, and
            # open a new stream (which subscribes afresh).
            for channel in list(self.listeners):
                self._deliver(channel, None)
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
class Watcher:
    """A stream's channel (games.live), and what it holds while open."""

    channel: str
    # A seated player's seat in a live game: the stream keeps it present.
    seat_id: int | None = None


def _session_user(session_key: str) -> User | None:
    """The signed-in user of a session cookie, checked as Django's log-in checks it."""
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = auth.get_user(request)
    return user if user.is_authenticated else None


def _watcher(game_id: int, session_key: str) -> Watcher | None:
    """The same visibility as the table page (None: hidden or missing); a live seat is
    reclaimed at once. The stream then holds no database connection while it is open."""
    try:
        user = _session_user(session_key) if session_key else None
        table = selectors.game_with_seats(game_id=game_id)
        if table is None:
            return None
        game = table.game
        if game.private and (
            user is None or not selectors.may_see(table=table, viewer=user, invite_code="")
        ):
            return None
        seat = table.seat_of(user) if user is not None else None
        if seat is None or game.mode != Game.Mode.LIVE or game.status != Game.Status.ACTIVE:
            return Watcher(channel=live.channel_for(game_id))
        presence.reclaim_seat(game_id=game_id, user=seat.user)
        return Watcher(channel=live.channel_for(game_id), seat_id=seat.pk)
    finally:
        connection.close()


def _mark_seats_seen(seat_ids: set[int]) -> None:
    try:
        presence.mark_seats_seen(seat_ids=seat_ids)
    finally:
        connection.close()


def _left_table(seat_id: int) -> None:
    try:
        presence.left_table(seat_id=seat_id)
    finally:
        connection.close()


def _event(version: int) -> bytes:
    return f"event: changed\ndata: {json.dumps({'version': version})}\n\n".encode()


async def _events(watcher: Watcher) -> AsyncIterator[bytes]:
    hub = _hub()
    queue = hub.subscribe(watcher.channel)
    if watcher.seat_id is not None:
        hub.hold_seat(watcher.seat_id)
    try:
        # The page resyncs when the stream opens, so nothing it missed before is lost.
        await asyncio.wait_for(hub.ready.wait(), READY_TIMEOUT_SECONDS)
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
        hub.unsubscribe(watcher.channel, queue)
        if watcher.seat_id is not None and hub.release_seat(watcher.seat_id):
            try:
                await sync_to_async(_left_table, thread_sensitive=False)(watcher.seat_id)
            except Exception:
                logger.exception("Could not mark seat %s as having left the table", watcher.seat_id)


EVENTS_PATH = re.compile(r"^/games/(?P<game_id>[0-9]{1,18})/events/$")


def _session_key(scope: dict[str, Any]) -> str:
    cookies: SimpleCookie = SimpleCookie()
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            cookies.load(value.decode("latin-1"))
    morsel = cookies.get(settings.SESSION_COOKIE_NAME)
    return morsel.value if morsel is not None else ""


async def _answer(send: Any, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})


async def asgi_stream(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """GET /games/{id}/events/ as a plain ASGI endpoint (canasta_club.asgi routes it here):
    not through Django's request handling, which would hold a thread and a database
    connection for as long as each stream is open."""
    match = EVENTS_PATH.match(scope["path"])
    assert match is not None
    await serve_stream(
        scope,
        receive,
        send,
        lambda: _watcher(int(match["game_id"]), _session_key(scope)),
    )


async def serve_stream(
    scope: dict[str, Any], receive: Any, send: Any, watcher_of: Callable[[], Watcher | None]
) -> None:
    """A live page's stream: `watcher_of` (run in a thread: it may read the database, and must
    close its connection) says which channel, or None for a 404."""
    if scope["method"] != "GET":
        await _answer(send, 405)
        return
    watcher = await sync_to_async(watcher_of, thread_sensitive=False)()
    if watcher is None:
        await _answer(send, 404)
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache"),
                (b"x-accel-buffering", b"no"),
            ],
        }
    )

    async def disconnected() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    async def pump() -> None:
        async for chunk in _events(watcher):
            await send({"type": "http.response.body", "body": chunk, "more_body": True})

    tasks = [asyncio.ensure_future(disconnected()), asyncio.ensure_future(pump())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    with contextlib.suppress(OSError, RuntimeError):
        await send({"type": "http.response.body", "body": b""})


def stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """The path's answer wherever the ASGI endpoint does not serve it (a WSGI server, or no
    Redis): 503, and the page polls its table fragment instead."""
    return HttpResponse(status=503, headers={"Retry-After": "30"})
