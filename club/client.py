"""The client's address, for the throttles and the log-in limiter.

`X-Forwarded-For` is a header anybody can send: it is read only when NUM_PROXIES says how many
reverse proxies of ours stand in front of the app (each appends the address it saw), and then
only the entry the nearest of them wrote. With the default, 0, the socket's peer is the client.
"""

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request


def client_address(request: HttpRequest | Request) -> str:
    remote = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if settings.NUM_PROXIES == 0 or not forwarded:
        return remote
    hops = forwarded.split(",")
    return hops[-min(settings.NUM_PROXIES, len(hops))].strip()
