"""Failed log-in limits, per client address and per account.

Every password check goes through `accounts.backends.LimitedModelBackend` (Django's
`authenticate`): the API token endpoint, the password change, the browsable API's and the
admin's log-in pages, and any web page that logs people in. Refused attempts never reach the
password hasher, so a guessing client costs no PBKDF2 time. Limits (settings.LOGIN_LIMITS):

- per address: `address_failures` failed attempts within `window_seconds` (counted from the
  first), then every attempt from that address is refused until the window ends;
- per account (the username as typed, casefolded; unknown names count alike, so the answer
  never tells whether an account exists): `account_failures` free failures, then each next
  attempt waits 1, 2, 4, ... seconds after the last failure, at most `backoff_max_seconds`; the
  count is forgotten `window_seconds` after the last failure. An address the account logged in
  from within `known_address_days` skips the account backoff, so a distributed guess at one
  account cannot lock its owner out at home, and elsewhere not for longer than the cap.

Counts live in the shared cache; when it is down nobody is limited (club/cache.py).
"""

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from club.client import client_address

_PREFIX = "login_limits"


def _limits() -> dict[str, Any] | None:
    limits: dict[str, Any] | None = settings.LOGIN_LIMITS
    return limits


def _account(username: str) -> str:
    return username.casefold()


def _address_keys(address: str) -> tuple[str, str]:
    """(failures, first failure's time) of a client address."""
    return f"{_PREFIX}:address:{address}:failures", f"{_PREFIX}:address:{address}:since"


def _account_keys(username: str) -> tuple[str, str]:
    """(failures, last failure's time) of an account."""
    account = _account(username)
    return f"{_PREFIX}:account:{account}:failures", f"{_PREFIX}:account:{account}:last"


def _known_key(username: str, address: str) -> str:
    return f"{_PREFIX}:known:{_account(username)}:{address}"


def _count_one(key: str, timeout: int) -> int:
    """One more failure, atomically (Redis INCR: parallel guesses all count); a new count lives
    `timeout` seconds."""
    if cache.add(key, 1, timeout):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # it expired between the two calls
        cache.add(key, 1, timeout)
        return 1


def _address(request: HttpRequest | None) -> str:
    return client_address(request) if request is not None else ""


def _backoff_seconds(failures: int, limits: dict[str, Any]) -> float:
    beyond = failures - limits["account_failures"]
    if beyond < 0:
        return 0.0
    return float(min(2**beyond, limits["backoff_max_seconds"]))


def retry_after(*, request: HttpRequest | None, username: str) -> float | None:
    """Seconds until this client may try this account's password again; None: now."""
    limits = _limits()
    if limits is None:
        return None
    address = _address(request)
    now = time.time()
    waits: list[float] = []
    failures_key, since_key = _address_keys(address)
    by_address = cache.get_many([failures_key, since_key])
    if by_address.get(failures_key, 0) >= limits["address_failures"]:
        waits.append(by_address.get(since_key, now) + limits["window_seconds"] - now)
    failures_key, last_key = _account_keys(username)
    by_account = cache.get_many([failures_key, last_key])
    if failures_key in by_account and not cache.get(_known_key(username, address)):
        backoff = _backoff_seconds(by_account[failures_key], limits)
        waits.append(by_account.get(last_key, now) + backoff - now)
    wait = max(waits, default=0.0)
    return wait if wait > 0 else None


def record_failure(*, request: HttpRequest | None, username: str) -> None:
    limits = _limits()
    if limits is None:
        return
    now = time.time()
    window = limits["window_seconds"]
    failures_key, since_key = _address_keys(_address(request))
    if _count_one(failures_key, window) == 1:
        cache.set(since_key, now, window)
    failures_key, last_key = _account_keys(username)
    _count_one(failures_key, window)
    # Forgotten `window` after the last failure, not the first.
    cache.touch(failures_key, window)
    cache.set(last_key, now, window)


def record_success(*, request: HttpRequest | None, username: str) -> None:
    limits = _limits()
    if limits is None:
        return
    cache.delete_many(_account_keys(username))
    cache.set(_known_key(username, _address(request)), True, limits["known_address_days"] * 86400)
