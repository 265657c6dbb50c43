"""DRF's throttles, keyed on `client_address` (never on a client-sent X-Forwarded-For).

`anon` and `user` apply to every API view (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]); views
with tighter needs add a ScopedRateThrottle scope. They count in the shared cache, which
degrades when Redis is down (club/cache.py): then nobody is throttled. On Redis a
request's check is one round trip (a Lua script), where DRF's own reads the history and writes it
back: two, a third of a millisecond of CPU a request (bench/trace.py).
"""

from typing import TYPE_CHECKING

from rest_framework import throttling
from rest_framework.request import Request

from club.cache import shared_cache
from club.client import client_address

if TYPE_CHECKING:  # DRF imports this module while it defines APIView
    from rest_framework.views import APIView

# DRF's sliding window, as its SimpleRateThrottle keeps it: the times of the requests let
# through, newest first; those older than the window are dropped, and a request is refused
# while the window holds `limit` of them (a refused one is not counted). Only the expired times
# are read, from the oldest end, and the rest counted by LLEN: a request's round trip stays short
# however many the window holds (a lifted rate, a bench). Answers whether it was let through (1
# or 0), the count (this request's included) and the oldest time kept, as text.
HISTORY_SCRIPT = """
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local oldest = redis.call('LINDEX', KEYS[1], -1)
while oldest and tonumber(oldest) <= now - window do
  redis.call('RPOP', KEYS[1])
  oldest = redis.call('LINDEX', KEYS[1], -1)
end
local kept = redis.call('LLEN', KEYS[1])
if kept >= limit then return {0, kept, oldest} end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {1, kept + 1, oldest or ARGV[1]}
"""


class _ClubThrottle(throttling.SimpleRateThrottle):
    """Per client address; on Redis one round trip a request (HISTORY_SCRIPT), elsewhere DRF's
    own history in the cache."""

    num_requests: int  # set from the rate by DRF
    duration: int
    counted = 0
    oldest = 0.0

    def get_ident(self, request: Request) -> str:
        return client_address(request)

    def allow_request(self, request: Request, view: "APIView") -> bool:
        cache = shared_cache()
        if cache is None:
            let_through = super().allow_request(request, view)
            history = getattr(self, "history", [])
            self.counted, self.oldest = len(history), history[-1] if history else 0.0
            return let_through
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        allowed, counted, oldest = cache.run_script(
            HISTORY_SCRIPT,
            # Not DRF's key, which holds a pickled list (a tree before this one, mid-deploy).
            keys=[f"{self.key}:window"],
            args=[repr(self.now), self.duration, self.num_requests],
            fallback=(1, 0, b"0"),  # Redis down: nobody is throttled
        )
        self.counted, self.oldest = int(counted), float(oldest)
        return bool(allowed)

    def wait(self) -> float | None:
        """DRF's advice: the window's rest shared among the requests it will let through."""
        remaining = self.duration - (self.now - self.oldest) if self.counted else self.duration
        available = self.num_requests - self.counted + 1
        return remaining / available if available > 0 else None


# DRF's classes first: the scoped one picks its rate from the view, then calls ours.
class AnonRateThrottle(throttling.AnonRateThrottle, _ClubThrottle):
    pass


class UserRateThrottle(throttling.UserRateThrottle, _ClubThrottle):
    pass


class ScopedRateThrottle(throttling.ScopedRateThrottle, _ClubThrottle):
    pass
