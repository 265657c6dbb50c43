"""DRF's throttles, keyed on `client_address` (never on a client-sent X-Forwarded-For).

`anon` and `user` apply to every API view (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]); views
with tighter needs add a ScopedRateThrottle scope. They count in the shared cache, which
degrades when Redis is down (club/cache.py): then nobody is throttled. On Redis a
request's check is one round trip (a Lua script), where DRF's own reads the history and writes it
back: two, a third of a millisecond of CPU a request (bench/trace.py). A token's request makes
none of its own: `read_and_count` counts it in the round trip that reads the token.
"""

from typing import TYPE_CHECKING, Any

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
_COUNT = """
local function count(key, now, window, limit)
  local oldest = redis.call('LINDEX', key, -1)
  while oldest and tonumber(oldest) <= now - window do
    redis.call('RPOP', key)
    oldest = redis.call('LINDEX', key, -1)
  end
  local kept = redis.call('LLEN', key)
  if kept >= limit then return {0, kept, oldest} end
  redis.call('LPUSH', key, ARGV[1])
  redis.call('EXPIRE', key, ARGV[2])
  return {1, kept + 1, oldest or ARGV[1]}
end
"""
HISTORY_SCRIPT = (
    _COUNT + "return count(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))"
)
# The same count in the window KEYS[2], made only if KEYS[1] holds an account's credentials:
# a value the cache stored pickled, not an integer (which it stores as digits: a mark that
# there are none to read); answers that value first.
GATED_HISTORY_SCRIPT = (
    _COUNT
    + """
local gate = redis.call('GET', KEYS[1])
if not gate or tonumber(gate) then return {gate} end
local verdict = count(KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
return {gate, verdict[1], verdict[2], verdict[3]}
"""
)
# Where read_and_count leaves its verdicts on the request: {window key: (time, let through,
# counted, oldest)}.
_COUNTED = "_club_counted_windows"


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
        window = _window_key(self.key)
        verdict = getattr(request, _COUNTED, {}).get(window)
        if verdict is None:
            self.now = self.timer()
            verdict = (
                self.now,
                *cache.run_script(
                    HISTORY_SCRIPT,
                    keys=[window],
                    args=[repr(self.now), self.duration, self.num_requests],
                    fallback=(1, 0, b"0"),  # Redis down: nobody is throttled
                ),
            )
        self.now, allowed, counted, oldest = verdict
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
    def window_of(self, user_id: int) -> str:
        """The window of an account's requests (DRF's key for an authenticated caller)."""
        return _window_key(self.cache_format % {"scope": self.scope, "ident": user_id})


class ScopedRateThrottle(throttling.ScopedRateThrottle, _ClubThrottle):
    pass


def _window_key(throttle_key: str) -> str:
    # Not DRF's key, which holds a pickled list (a tree before this one, mid-deploy).
    return f"{throttle_key}:window"


def read_and_count(request: Request, *, key: str, user_id: int) -> Any:
    """What the shared cache holds at `key` (an account's credentials), read in the round trip
    that counts this request in the window of the view's per-account throttle for `user_id`,
    which then takes that count instead of asking Redis again: a request's token and its
    throttle are one round trip, not two.

    Counted only if `key` holds a value other than an integer (a mark that there are no
    credentials to read there), which the caller then authenticates the request by, as DRF
    would before counting it. Otherwise nothing is counted, and the throttle counts as usual.
    None when the key holds nothing, and while Redis is down.
    """
    cache = shared_cache()
    if cache is None:
        return None
    view = (request.parser_context or {}).get("view")
    throttles = view.get_throttles() if view is not None else []
    throttle = next((each for each in throttles if isinstance(each, UserRateThrottle)), None)
    if throttle is None or throttle.rate is None:
        return cache.get(key)
    window, now = throttle.window_of(user_id), throttle.timer()
    answer: list[Any] = cache.run_script(
        GATED_HISTORY_SCRIPT,
        keys=[key, window],
        args=[repr(now), throttle.duration, throttle.num_requests],
        fallback=[],
    )
    if not answer or answer[0] is None:
        return None
    if len(answer) == 4:
        setattr(request, _COUNTED, {window: (now, *answer[1:])})
    return cache.loaded(answer[0])
