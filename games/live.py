"""Announcing a game's new version to the live pages (Redis pub/sub), after commit.

An announcement is only "game N is at version V": no card travels in a shared event; each page
then fetches its own seat's view. Other pages that follow games (a tournament's) announce their
own versions on a topic of their own through the same channels (`announce_topic_after_commit`).
Without Redis (the embedded default) there is nobody to tell: the pages poll instead. A lost
announcement costs a page one poll interval, never a wrong state.
"""

import functools
import logging

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


@functools.cache
def _client(url: str) -> redis.Redis:
    # Short timeouts: a move's request must not hang on a dead Redis after its commit.
    return redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)


def _publish(channel: str, version: int) -> None:
    try:
        _client(settings.REDIS_URL).publish(channel, str(version))
    except redis.RedisError:
        logger.warning("Could not announce %s version %s", channel, version, exc_info=True)


def announce_topic_after_commit(*, topic: str, key: int, version: int) -> None:
    """Inside the transaction that changed it: tell the live pages of `topic` `key` once it
    commits."""
    if settings.LIVE_EVENTS:
        transaction.on_commit(functools.partial(_publish, topic_channel(topic, key), version))


def announce_after_commit(*, game_id: int, version: int) -> None:
    """Inside the transaction that moved the game: tell the live pages once it commits."""
    announce_topic_after_commit(topic=GAME_TOPIC, key=game_id, version=version)
