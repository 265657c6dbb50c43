"""DRF's throttles, keyed on `client_address` (never on a client-sent X-Forwarded-For).

`anon` and `user` apply to every API view (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]); views
with tighter needs add a ScopedRateThrottle scope. They count in the shared cache, which
degrades when Redis is down (canasta_club/cache.py): then nobody is throttled.
"""

from rest_framework import throttling
from rest_framework.request import Request

from canasta_club.client import client_address


class _ByClientAddress(throttling.BaseThrottle):
    def get_ident(self, request: Request) -> str:
        return client_address(request)


class AnonRateThrottle(_ByClientAddress, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(_ByClientAddress, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(_ByClientAddress, throttling.ScopedRateThrottle):
    pass
