"""The session engine: Django's database sessions, read from the shared cache (Redis).

Every signed-in request reads its session: from Redis a read costs ~0.05 ms of CPU, through the
ORM ~0.4 ms (bench/web.py's table fragment). The database stays the record, and the cache only
serves a session it cannot have outlived:

- a session goes into the cache when it is saved, or when a read found it only in the database
  (set if absent: see the next point);
- a session that ends (log-out, the old key of a log-in or of a password change) is first
  replaced in the cache by a mark that it ended, then deleted from the database; so a read that
  raced the log-out cannot put it back, as its set-if-absent finds the mark;
- when Redis cannot take that mark, ending the session fails (an error, the database row left
  as it was) rather than leaving a copy that a Redis coming back would serve;
- the signed-in user is not cached: Django's get_user reads them from the database on every
  request, so a password change or a deactivation counts at once.

Without Redis (the embedded default's cache is each process's own memory, where a log-out in one
process would not reach the others) sessions are read from the database alone, as Django's.
"""

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.sessions.backends import db
from django.core.cache import caches

from canasta_club.cache import DegradingRedisCache

KEY_PREFIX = "canasta_club.sessions:"
# What an ended session's key holds in the cache; long enough for any read that raced the end.
ENDED = "ended"
ENDED_SECONDS = 300


def _shared_cache() -> DegradingRedisCache | None:
    cache = caches["default"]
    return cache if isinstance(cache, DegradingRedisCache) else None


class SessionStore(db.SessionStore):
    def load(self) -> dict[str, Any]:
        cache = _shared_cache()
        if cache is None:
            return super().load()
        key = KEY_PREFIX + str(self.session_key)
        data = cache.get(key)
        if data == ENDED:
            self._session_key = None  # as for a session the database does not have
            return {}
        if data is not None:
            return data
        row = self._get_session_from_db()  # type: ignore[attr-defined]  # django-stubs lack it
        if row is None:
            return {}
        data = self.decode(row.session_data)
        cache.add(key, data, self.get_expiry_age(expiry=row.expire_date))
        return data

    def save(self, must_create: bool = False) -> None:
        if self.session_key is None:
            return self.create()  # a new key, saved (here) with must_create
        super().save(must_create)
        cache = _shared_cache()
        if cache is not None:
            data = self._session  # type: ignore[attr-defined]  # django-stubs lack it
            cache.set(KEY_PREFIX + self.session_key, data, self.get_expiry_age())

    def delete(self, session_key: str | None = None) -> None:
        key = session_key or self.session_key
        cache = _shared_cache()
        if cache is not None and key is not None:
            cache.set_or_raise(KEY_PREFIX + key, ENDED, ENDED_SECONDS)
        super().delete(session_key)

    # Django's async session methods reach the database directly: here they go the same way.
    async def aload(self) -> dict[str, Any]:
        return await sync_to_async(self.load)()

    async def asave(self, must_create: bool = False) -> None:
        await sync_to_async(self.save)(must_create)

    async def adelete(self, session_key: str | None = None) -> None:
        await sync_to_async(self.delete)(session_key)
