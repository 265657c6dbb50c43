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

if TYPE_CHECKING:
    from accounts.models import ApiToken, User

KEY_PREFIX = "accounts.tokens:"
ENTRY_SECONDS = 60
CHANGED = "changed"
# User fields whose update alone leaves the cached copies be: nothing reads them from the cache.
STAMPS = frozenset({"last_seen_at"})


def _key(digest: str) -> str:
    return KEY_PREFIX + digest


def cached(digest: str) -> "tuple[User, ApiToken] | None":
    """The token of `digest` and its user as the database last had them, if the cache holds
    them (expiry and is_active are the caller's to check)."""
    cache = shared_cache()
    if cache is None:
        return None
    entry = cache.get(_key(digest))
    return None if entry is None or entry == CHANGED else entry


def remember(digest: str, token: "ApiToken", *, now: datetime) -> None:
    """Keeps a token just read from the database with its user (`token.user`), unless a change
    since marked it."""
    cache = shared_cache()
    seconds = min(ENTRY_SECONDS, (token.expires_at - now).total_seconds())
    if cache is not None and seconds > 0:
        cache.add(_key(digest), (token.user, token), seconds)


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
