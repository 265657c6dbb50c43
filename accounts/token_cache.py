"""A token's user, read from the shared cache (Redis) instead of the database.

Every API request authenticates: through the ORM the token and its user cost ~0.9 ms of CPU
(bench/trace.py), from Redis ~0.1 ms. The database stays the record, and the cache never serves
a token or a user it cannot have outlived:

- an entry (the token and its user, as the database had them) lives ENTRY_SECONDS at most, and
  never past the token's expiry, which is checked again on every request;
- it is put in only after a database read, set if absent (`add`);
- whatever changes a user row (`save()`, and `update()` through `User.objects`, which every
  service uses: accounts.models.UserQuerySet), updates a token (`ApiToken.objects`) or deletes
  one (revoked, logged out, a password changed, an account deleted) first replaces the entries
  of those tokens with a mark that they are changing, for ENTRY_SECONDS (`changing`): a request
  that read the database before the change cannot put its copy back (its `add` finds the
  mark), and while the mark is there the token is read from the database;
- once the change has committed, its mark becomes one that the change is done, and the first
  request that saw that mark and then read the database puts its copy in its place (compare and
  set): a player whose game just ended, which counts it on their user row, is read from the
  database once, not for a minute. A later change's mark, or one whose transaction has not yet
  committed, is never replaced so;
- but the last-seen stamp (`last_seen_at`, STAMPS) alone changes nothing the cache is read for:
  it is written once a minute per player, and dropping the entry for it would send every
  request to the database. A cached user's `last_seen_at` may be that old; accounts.services
  .mark_seen keeps its own record of the stamps it wrote;
- the database stays the record: a token deleted or a user row changed while Redis cannot take
  the mark is deleted or changed all the same (a password change, a log-out and the deadline
  sweep go on without Redis), and only a Redis that kept its entries through the outage may
  serve that stale copy, for ENTRY_SECONDS at most.

So a revoked or expired token and a deactivated account are refused at once. Without Redis (the
embedded default: each process's memory) tokens are read from the database alone.
"""

import functools
import secrets
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction

from club.cache import shared_cache
from club.throttling import read_and_count

if TYPE_CHECKING:
    from rest_framework.request import Request

    from accounts.models import ApiToken, User

KEY_PREFIX = "accounts.tokens:"
ENTRY_SECONDS = 60
# User fields whose update alone leaves the cached copies be: nothing reads them from the cache.
STAMPS = frozenset({"last_seen_at"})
# The accounts of the tokens this process has read (a digest's never changes), so that a
# request's throttle can be counted before its token is read; emptied when it holds this many.
OWNERS_KEPT = 100_000
_owners: dict[str, int] = {}
# A key holds a token's entry (pickled) or a change's mark, an integer (which the cache stores
# as digits, so its scripts tell the two apart: club.throttling.read_and_count): -n while the
# change may not have committed, n once it has.


@dataclass(frozen=True)
class Lookup:
    """What the cache holds for a token: its entry, or else the mark a `remember` may replace
    (None: nothing)."""

    entry: "tuple[User, ApiToken] | None"
    mark: int | None = None


def _key(digest: str) -> str:
    return KEY_PREFIX + digest


def cached(digest: str, *, request: "Request | None" = None) -> Lookup:
    """The token of `digest` and its user as the database last had them, if the cache holds
    them (expiry and is_active are the caller's to check).

    Given the API `request` it authenticates, and a token this process has seen before (so
    its account is known: a token never changes hands), the same round trip counts the request
    in the account's throttle (club.throttling.read_and_count)."""
    cache = shared_cache()
    if cache is None:
        return Lookup(entry=None)
    user_id = _owners.get(digest)
    if request is not None and user_id is not None:
        held = read_and_count(request, key=_key(digest), user_id=user_id)
    else:
        held = cache.get(_key(digest))
    if held is None or isinstance(held, int):
        return Lookup(entry=None, mark=held)
    if not isinstance(held, tuple):  # a tree before this one marked changes with text
        return Lookup(entry=None, mark=-1)
    _owner_is(digest, held[1].user_id)
    return Lookup(entry=held)


def remember(digest: str, token: "ApiToken", *, now: datetime, lookup: Lookup) -> None:
    """Keeps a token just read from the database with its user (`token.user`), where `lookup`
    (made before that read) found nothing or the mark of a change that has committed."""
    cache = shared_cache()
    seconds = int(min(ENTRY_SECONDS, (token.expires_at - now).total_seconds()))
    if cache is None or seconds <= 0:
        return
    _owner_is(digest, token.user_id)
    entry = (token.user, token)
    if lookup.mark is None:
        cache.add(_key(digest), entry, seconds)
    elif lookup.mark > 0:
        cache.replace_many([_key(digest)], expected=lookup.mark, value=entry, timeout=seconds)


def _owner_is(digest: str, user_id: int) -> None:
    if len(_owners) >= OWNERS_KEPT:
        _owners.clear()
    _owners[digest] = user_id


@contextmanager
def changing(digests: Iterable[str]) -> Iterator[None]:
    """Around a change to these tokens' rows (or their users'): their entries marked as changing
    first, and as changed once the change has committed."""
    release = _mark_changing(digests)
    yield
    release()


def changed(digests: Iterable[str]) -> None:
    """`changing`, after a change already written (a signal of `save()` or `delete()`)."""
    _mark_changing(digests)()


def _mark_changing(digests: Iterable[str]) -> Callable[[], None]:
    """Marks the entries as changing; answers what marks them as changed at commit."""
    cache = shared_cache()
    keys = [_key(digest) for digest in digests] if cache is not None else []
    if cache is None or not keys:
        return lambda: None
    change = secrets.randbits(62) + 1
    cache.set_many(dict.fromkeys(keys, -change), ENTRY_SECONDS)
    # Only where no later change has put its own mark since.
    done = functools.partial(
        cache.replace_many, keys, expected=-change, value=change, timeout=ENTRY_SECONDS
    )
    return lambda: transaction.on_commit(done)


def digests_of_users(user_ids: Iterable[int]) -> list[str]:
    """The tokens of these users (their ids, or a queryset of them), when there is a shared
    cache to mark them in (one query); else none."""
    from accounts.models import ApiToken

    if shared_cache() is None:
        return []
    return list(ApiToken.objects.filter(user_id__in=user_ids).values_list("digest", flat=True))
