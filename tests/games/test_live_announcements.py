"""A game's announcements (games/live.py) reach the live pages' subscription through the real
Redis, without the move waiting for Redis's reply, and carry on after Redis drops the
announcer's connection."""

import time
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings

from games import live


@pytest.fixture
def channel() -> str:
    return f"test-announcements:{uuid.uuid4().hex}"


@pytest.fixture
def listener(channel: str) -> Iterator[redis.client.PubSub]:
    client = redis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    pubsub.get_message(timeout=1)  # the subscription's confirmation
    yield pubsub
    pubsub.close()
    client.close()


def heard(pubsub: redis.client.PubSub, *, seconds: float = 2.0) -> list[int]:
    versions, until = [], time.monotonic() + seconds
    while time.monotonic() < until:
        message = pubsub.get_message(timeout=0.1)
        if message is not None:
            versions.append(int(message["data"]))
        elif versions:
            break
    return versions


def test_an_announcement_reaches_the_live_pages(channel, listener) -> None:
    live._publish(channel, 7)
    live._publish(channel, 8)

    assert heard(listener) == [7, 8]


def test_announcements_carry_on_after_redis_drops_the_connection(channel, listener) -> None:
    live._publish(channel, 1)
    assert heard(listener) == [1]
    announcer_socket = live._announcer._connected()._sock
    assert announcer_socket is not None
    host, port = announcer_socket.getsockname()[:2]
    redis.Redis.from_url(settings.REDIS_URL).client_kill(f"{host}:{port}")

    live._publish(channel, 2)  # may be written to the closed connection, and lost
    live._publish(channel, 3)

    assert heard(listener)[-1:] == [3]
