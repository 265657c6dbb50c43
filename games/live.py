"""Announcing a game's new version to the live pages (Redis pub/sub), after commit.

An announcement is only "game N is at version V": no card travels in a shared event; each page
then fetches its own seat's view. Other pages that follow games (a tournament's) announce their
own versions on a topic of their own through the same channels (`announce_topic_after_commit`).
Without Redis (the embedded default) there is nobody to tell: the pages poll instead. A lost
announcement costs a page one poll interval, never a wrong state.
"""

import functools
import logging
import os
import threading
from typing import cast

import redis
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)


GAME_TOPIC = "game"


def topic_channel(topic: str, key: int) -> str:
    return f"{settings.LIVE_CHANNEL_PREFIX}:{topic}:{key}"


def channel_for(game_id: int) -> str:
    return topic_channel(GAME_TOPIC, game_id)


def channel_pattern() -> str:
    """Every topic's channels: one subscription of a process serves them all."""
    return f"{settings.LIVE_CHANNEL_PREFIX}:*"


class _Announcer:
    """The process's connection for announcements, on which Redis sends no replies (CLIENT REPLY
    OFF): an announcement is written to the socket and the request goes on, without waiting for
    Redis's answer (how many listened, which nobody needs), about a fifth of a millisecond of a
    move's CPU. An announcement written to a connection that Redis had closed is lost (the next
    one reconnects), which costs the pages one poll interval."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connection: redis.Connection | None = None
        self._pid = 0

    def publish(self, channel: str, version: int) -> None:
        with self._lock:
            for last_try in (False, True):
                try:
                    self._connected().send_command("PUBLISH", channel, str(version))
                    return
                except (redis.RedisError, OSError):
                    self._drop()
                    if last_try:
                        raise

    def _connected(self) -> redis.Connection:
        if self._connection is None or self._pid != os.getpid():  # a fork holds the parent's
            self._connection, self._pid = _replyless_connection(), os.getpid()
        return self._connection

    def _drop(self) -> None:
        if self._connection is not None and self._pid == os.getpid():
            self._connection.disconnect()
        self._connection = None


def _replyless_connection() -> redis.Connection:
    # Short timeouts: a move's request must not hang on a dead Redis after its commit. The pool
    # only makes it, of the URL's kind (rediss:// a TLS one).
    pool = redis.ConnectionPool.from_url(
        settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5
    )
    connection = cast(redis.Connection, pool.make_connection())
    connection.connect()
    connection.send_command("CLIENT", "REPLY", "OFF")
    return connection


_announcer = _Announcer()


def _publish(channel: str, version: int) -> None:
    try:
        _announcer.publish(channel, version)
    except (redis.RedisError, OSError):
        logger.warning("Could not announce %s version %s", channel, version, exc_info=True)


def announce_topic_after_commit(*, topic: str, key: int, version: int) -> None:
    """Inside the transaction that changed it: tell the live pages of `topic` `key` once it
    commits."""
    if settings.LIVE_EVENTS:
        transaction.on_commit(functools.partial(_publish, topic_channel(topic, key), version))


def announce_after_commit(*, game_id: int, version: int) -> None:
    """Inside the transaction that moved the game: tell the live pages once it commits."""
    announce_topic_after_commit(topic=GAME_TOPIC, key=game_id, version=version)
