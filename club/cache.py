"""The shared cache (throttles, the log-in limiter, cached figures) degrades when Redis is down.

Nothing the cache holds is a guarantee the club keeps in the database: while Redis is gone a
read is a miss and a write is dropped, so people can still log in and play, unthrottled. After
a failure the process skips the cache for SKIP_AFTER_FAILURE_SECONDS, so a Redis that does not
answer costs one timeout, not one per cache operation of every request. Failures are logged (at
most once per LOG_EVERY_SECONDS per process, so an outage does not flood the log), and
`/api/health/` reports the cache as down (`cache_is_up`, which always asks Redis).
"""

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import redis
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.commands.core import Script

logger = logging.getLogger(__name__)

LOG_EVERY_SECONDS = 10.0
SKIP_AFTER_FAILURE_SECONDS = 5.0
_CACHE_ERRORS = (redis.RedisError, OSError)

T = TypeVar("T")

# Compare and set: ARGV[2] (for ARGV[3] seconds) at each key of KEYS that holds ARGV[1].
REPLACE_SCRIPT = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('SET', key, ARGV[2], 'EX', ARGV[3]) end
end
"""


class _OneClientPerPool(RedisCacheClient):
    """Django's client builds a redis.Redis for every operation, which costs redis-py 8 ~0.4 ms
    of CPU (eight times a GET's), and the API's throttles make two operations a request. One
    client per connection pool serves them all: a client is thread-safe, and it takes its
    connections from the pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, redis.Redis] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]  # stubs lack it
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = super().get_client(key, write=write)
        return client


class DegradingRedisCache(RedisCache):
    """Django's Redis cache whose every operation falls back instead of raising."""

    _last_logged = 0.0
    _skip_until = 0.0

    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = _OneClientPerPool
        self._scripts: dict[str, Script] = {}

    @classmethod
    def _or(cls, fallback: T, operation: Callable[[], T]) -> T:
        if time.monotonic() < cls._skip_until:
            return fallback
        try:
            return operation()
        except _CACHE_ERRORS as exc:
            now = time.monotonic()
            cls._skip_until = now + SKIP_AFTER_FAILURE_SECONDS
            if now - cls._last_logged >= LOG_EVERY_SECONDS:
                cls._last_logged = now
                logger.warning("Cache unavailable, carrying on without it: %r", exc)
            return fallback

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._or(False, partial(super().add, key, value, timeout, version))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._or(default, partial(super().get, key, default, version))

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._or(None, partial(super().set, key, value, timeout, version))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._or(False, partial(super().touch, key, timeout, version))

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._or(False, partial(super().delete, key, version))

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._or({}, partial(super().get_many, keys, version))

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._or(False, partial(super().has_key, key, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        # As if the key had just been created: the count starts afresh.
        return self._or(delta, partial(super().incr, key, delta, version))

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._or(list(data), partial(super().set_many, data, timeout, version))

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._or(None, partial(super().delete_many, keys, version))

    def clear(self) -> None:
        self._or(None, super().clear)

    def run_script(self, source: str, *, keys: list[str], args: list[Any], fallback: T) -> T:
        """A Lua script run by Redis on keys named as this cache names them: a read and a write
        in one round trip. `fallback` while Redis is down, like the cache's own operations."""

        def run() -> T:
            script = self._scripts.get(source)
            if script is None:
                client = self._cache.get_client(write=True)  # type: ignore[attr-defined]
                script = self._scripts[source] = client.register_script(source)
            return script(keys=[self.make_and_validate_key(key) for key in keys], args=args)

        return self._or(fallback, run)

    def replace_many(self, keys: list[str], *, expected: Any, value: Any, timeout: int) -> None:
        """`value` put at each of `keys` that still holds `expected`, in one round trip."""
        self.run_script(
            REPLACE_SCRIPT,
            keys=keys,
            args=[self._stored_form(expected), self._stored_form(value), timeout],
            fallback=None,
        )

    def _stored_form(self, value: Any) -> Any:
        return self._cache._serializer.dumps(value)  # type: ignore[attr-defined]

    def loaded(self, stored: bytes) -> Any:
        """What a script read from a key, as `get` would have answered it."""
        return self._cache._serializer.loads(stored)  # type: ignore[attr-defined]

    def is_up(self) -> bool:
        try:
            # django-stubs lack RedisCache._cache (its client).
            client = self._cache.get_client(write=True)  # type: ignore[attr-defined]
            return bool(client.ping())
        except _CACHE_ERRORS:
            return False


def shared_cache() -> DegradingRedisCache | None:
    """The cache every web process shares (Redis), or None on the embedded default, whose
    local-memory cache is each process's own: what one process forgets there the others would
    still serve."""
    backend = caches["default"]
    return backend if isinstance(backend, DegradingRedisCache) else None


def cache_is_up() -> bool:
    """False while the shared cache cannot be reached; a local-memory cache is always up."""
    backend = caches["default"]
    return backend.is_up() if isinstance(backend, DegradingRedisCache) else True
