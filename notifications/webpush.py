"""Web push: the club's VAPID key and sending one encrypted push to one device (pywebpush)."""

import enum
import functools
import json
import logging
import os
from typing import Any

import requests
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid
from py_vapid.utils import b64urlencode
from pywebpush import WebPushException, webpush

logger = logging.getLogger(__name__)

# A push service that does not answer within this many seconds is tried again by a later drain.
PUSH_TIMEOUT_SECONDS = 5.0
# How long the push service keeps a push for a device that is offline.
PUSH_TTL_SECONDS = 24 * 60 * 60


class PushResult(enum.Enum):
    SENT = "sent"
    GONE = "gone"  # 404/410: the browser dropped the subscription; delete it
    FAILED = "failed"  # anything else: try again later


@functools.cache
def vapid() -> Vapid:
    """The club's VAPID key: VAPID_PRIVATE_KEY, else the key file, generated on first use."""
    if settings.VAPID_PRIVATE_KEY:
        return Vapid.from_string(private_key=settings.VAPID_PRIVATE_KEY)
    key_file = settings.VAPID_KEY_FILE
    if not key_file.exists():
        _generate_key_file(key_file)
    return Vapid.from_file(private_key_file=str(key_file))


def _generate_key_file(key_file: Any) -> None:
    """Write a new key so that, of web and worker starting together, exactly one key wins."""
    key_file.parent.mkdir(parents=True, exist_ok=True)
    candidate = Vapid()
    candidate.generate_keys()
    draft = key_file.with_name(f"{key_file.name}.{os.getpid()}")
    candidate.save_key(str(draft))
    try:
        os.link(draft, key_file)  # fails if another process got there first: keep theirs
    except FileExistsError:
        pass
    finally:
        draft.unlink()


def application_server_key() -> str:
    """The public key a page passes to pushManager.subscribe() (base64url, uncompressed point)."""
    return b64urlencode(
        vapid().public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )


def send(
    *,
    endpoint: str,
    p256dh: str,
    auth: str,
    payload: dict[str, Any],
    topic: str,
    session: requests.Session,
) -> PushResult:
    """Encrypt and send one push. `topic` lets the push service replace an undelivered copy
    should a crash before commit make the drain send it again."""
    try:
        webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=vapid(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=PUSH_TTL_SECONDS,
            timeout=PUSH_TIMEOUT_SECONDS,
            headers={"Topic": topic, "Urgency": "high"},
            requests_session=session,
        )
    except WebPushException as error:
        if error.status_code in (404, 410):
            return PushResult.GONE
        logger.warning("Push to %s refused: %s", endpoint, error.message)
        return PushResult.FAILED
    except (requests.RequestException, ValueError, TypeError):
        logger.exception("Push to %s failed", endpoint)
        return PushResult.FAILED
    return PushResult.SENT
