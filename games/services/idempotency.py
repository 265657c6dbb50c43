"""The Idempotency-Key store of move requests: a retry of a judged request gets its first
answer back. The store keeps the domain outcome (made or refused) and the answer the caller
rendered for it; how that answer is sent (HTTP) is the API's business (games.views)."""

import hashlib
import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from accounts.models import User
from club import clock
from club.errors import KeyReused
from club.i18n import text
from games.models import Game, IdempotentResponse

# How long a retry with the same Idempotency-Key gets the first answer back (as Stripe: a day).
IDEMPOTENCY_KEY_TTL = timedelta(hours=24)


@dataclass(frozen=True)
class Replay:
    """A retried request's first outcome: the move made or refused by the engine, and the
    answer rendered for it then (so the retry gets the same one)."""

    refused: bool
    answer: dict[str, Any]


def request_fingerprint(*, version: int, action: dict[str, Any]) -> str:
    """sha256 of the move request's canonical JSON: tells a retry from another request."""
    canonical = json.dumps(
        {"version": version, "action": action},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def replay_of(*, game: Game, user: User, key: str, fingerprint: str) -> Replay | None:
    """The stored outcome of `key` (None: not used yet); KeyReused for another request's key.
    Inside the caller's transaction, under the game row lock."""
    stored = (
        IdempotentResponse.objects.filter(game=game, user=user, key=key)
        .values_list("fingerprint", "refused", "body")
        .first()
    )
    if stored is None:
        return None
    if stored[0] != fingerprint:
        raise KeyReused(
            "idempotency_key_reused",
            text(
                "Этот Idempotency-Key уже использован для другого хода.",
                "This Idempotency-Key was already used for another move.",
            ),
        )
    return Replay(refused=stored[1], answer=stored[2])


def remember(
    *, game: Game, user: User, key: str, fingerprint: str, refused: bool, answer: dict[str, Any]
) -> None:
    """Keeps a judged request's outcome with its key, in the caller's transaction."""
    IdempotentResponse.objects.create(
        game=game, user=user, key=key, fingerprint=fingerprint, refused=refused, body=answer
    )


def purge_idempotency_keys() -> int:
    """Forget stored answers older than IDEMPOTENCY_KEY_TTL; returns how many went."""
    cutoff = clock.now() - IDEMPOTENCY_KEY_TTL
    deleted, _ = IdempotentResponse.objects.filter(created_at__lt=cutoff).delete()
    return deleted
