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
  of those tokens with a mark that they changed, for ENTRY_SECONDS: a request that read the
  database before the change cannot put its copy back (its `add` finds the mark), and until the
  mark goes the token is read from the database;
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

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from club.cache import shared_cache
from club.throttling import read_and_count

if TYPE_CHECKING:
    from rest_framework.request import Request

    from accounts.models import ApiToken, User

KEY_PREFIX = "accounts.tokens:"
ENTRY_SECONDS = 60
CHANGED = "changed"
# User fields whose update alone leaves the cached copies be: nothing reads them from the cache.
STAMPS = frozenset({"last_seen_at"})
# The accounts of the tokens this process has read (a digest's never changes), so that a
# request's throttle can be counted before its token is read; emptied when it holds this many.
OWNERS_KEPT = 100_000
_owners: dict[str, int] = {}


def _key(digest: str) -> str:
    return KEY_PREFIX + digest


def cached(digest: str, *, request: "Request | None" = None) -> "tuple[User, ApiToken] | None":
    """The token of `digest` and its user as the database last had them, if the cache holds
    them (expiry and is_active are the caller's to check).

    Given the API `request` it authenticates, and a token this process has seen before (so
    its account is known: a token never changes hands), the same round trip counts the request
    in the account's throttle (club.throttling.read_and_count)."""
    cache = shared_cache()
    if cache is None:
        return None
    user_id = _owners.get(digest)
    if request is not None and user_id is not None:
        entry = read_and_count(request, key=_key(digest), unless=CHANGED, user_id=user_id)
    else:
        entry = cache.get(_key(digest))
        if entry is None or entry == CHANGED:
            return None
        _owner_is(digest, entry[1].user_id)
    return entry


def remember(digest: str, token: "ApiToken", *, now: datetime) -> None:
    """Keeps a token just read from the database with its user (`token.user`), unless a change
    since marked it."""
    cache = shared_cache()
    seconds = min(ENTRY_SECONDS, (token.expires_at - now).total_seconds())
    if cache is not None and seconds > 0:
        cache.add(_key(digest), (token.user, token), seconds)
        _owner_is(digest, token.user_id)


def _owner_is(digest: str, user_id: int) -> None:
    if len(_owners) >= OWNERS_KEPT:
        _owners.clear()
    _owners[digest] = user_id


def forget_tokens(digests: Iterable[str]) -> None:
    """Tokens whose rows (or their users' rows) change: their entries marked."""
    cache = shared_cache()
    marks = {_key(digest): CHANGED for digest in digests} if cache is not None else {}
    if cache is not None and marks:
        cache.set_many(marks, ENTRY_SECONDS)


def forget_users(user_ids: Iterable[int]) -> None:
    """Users (their ids, or a queryset of them) whose rows change: their tokens' entries marked
    (one query for the tokens' digests)."""
    from accounts.models import ApiToken

    if shared_cache() is not None:
        forget_tokens(
            ApiToken.objects.filter(user_id__in=user_ids).values_list("digest", flat=True)
        )
