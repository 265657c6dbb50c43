"""Web push: the club's VAPID key, and sending encrypted pushes to devices, each under a hard
deadline, concurrently, to checked public addresses only, never following a redirect.

A push endpoint is any URL a browser (or anybody) sends, so every connection a push makes is to
an address checked just before (notifications.push_endpoints): the name is resolved, every
address judged, and the socket connects to one of those very addresses (TLS still verifies the
name). Environment proxies are not used: a proxy would resolve the name itself, after the check.
"""

import enum
import functools
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid
from py_vapid.utils import b64urlencode
from pywebpush import WebPusher
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError
from urllib3.util.connection import create_connection

from notifications import push_endpoints

logger = logging.getLogger(__name__)

# A push service answers within a second; one that does not connect, or stays silent, within
# these is tried again later (with a backoff), and PUSH_DEADLINE_SECONDS bounds a whole push
# however slowly its bytes trickle in.
CONNECT_TIMEOUT_SECONDS = 2.0
READ_TIMEOUT_SECONDS = 3.0
PUSH_DEADLINE_SECONDS = 5.0
# Pushes in flight at once: a hanging endpoint holds one of these, not the queue.
PUSH_SENDERS = 16
# How long the push service keeps a push for a device that is offline.
PUSH_TTL_SECONDS = 24 * 60 * 60
# VAPID claims live this long (RFC 8292 allows up to 24 hours) past the period they are signed
# in, once per period and push service.
VAPID_CLAIM_SECONDS = 12 * 60 * 60
VAPID_RESIGN_SECONDS = 60 * 60
# Of a refusal's body, what the logs and the delivery's reason keep.
REASON_LENGTH = 300


class PushResult(enum.Enum):
    SENT = "sent"
    GONE = "gone"  # 404/410: the browser dropped the subscription; delete it
    FAILED = "failed"  # unreachable, slow, 429, 5xx, a redirect: try again later
    REFUSED = "refused"  # can never be sent as it is: set the delivery aside with the reason


@dataclass(frozen=True)
class Push:
    endpoint: str
    p256dh: str
    auth: str
    payload: dict[str, Any]
    # Lets the push service replace an undelivered copy, should the push be sent again.
    topic: str


@dataclass(frozen=True)
class Outcome:
    result: PushResult
    reason: str = ""


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


# ----------------------------------------------------------------------------- sending


class Sender:
    """Sends pushes PUSH_SENDERS at a time over one connection pool (keep-alive to each push
    service); each push ends within PUSH_DEADLINE_SECONDS, so a batch does too."""

    def __init__(self, *, senders: int = PUSH_SENDERS) -> None:
        self.session = requests.Session()
        self.session.trust_env = False  # no environment proxies: see the module's docstring
        adapter = PinnedAdapter(pool_maxsize=senders)
        self.session.mount("https://", adapter)
        self.session.mount("http://", adapter)
        self._pool = ThreadPoolExecutor(max_workers=senders, thread_name_prefix="push")

    def send_all(self, pushes: list[Push]) -> list[Outcome]:
        """Each push's outcome, in order."""
        return list(self._pool.map(functools.partial(send, session=self.session), pushes))

    def close(self) -> None:
        self._pool.shutdown()
        self.session.close()

    def __enter__(self) -> "Sender":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def send(push: Push, *, session: requests.Session) -> Outcome:
    """Encrypt, sign and send one push. Never raises: whatever goes wrong is an outcome."""
    try:
        push_endpoints.checked_url(push.endpoint)
        request = _request(push)
        with hard_deadline(PUSH_DEADLINE_SECONDS) as deadline:
            answer = session.post(
                push.endpoint,
                data=request["body"],
                headers=request["headers"],
                timeout=(CONNECT_TIMEOUT_SECONDS, READ_TIMEOUT_SECONDS),
                allow_redirects=False,
                stream=True,  # the body is read only on a refusal, and only its start
            )
            with answer:
                outcome = _outcome(answer)
    except push_endpoints.EndpointRefused as refused:
        logger.warning("Push to %s refused: %s", push.endpoint, refused.reason)
        return Outcome(PushResult.REFUSED, f"endpoint refused: {refused.reason}")
    except requests.RequestException as error:
        logger.warning("Push to %s failed: %s", push.endpoint, error)
        return Outcome(PushResult.FAILED, reason_of(error))
    except Exception as error:  # a poison push (bad keys, a host VAPID cannot sign for...)
        logger.exception("Push to %s cannot be sent", push.endpoint)
        return Outcome(PushResult.REFUSED, reason_of(error))
    if deadline.passed:  # a cut answer may still parse as a whole one
        return Outcome(PushResult.FAILED, f"no whole answer within {PUSH_DEADLINE_SECONDS} s")
    return outcome


def _request(push: Push) -> dict[str, Any]:
    """The encrypted body (aes128gcm) and the headers, VAPID-signed for the push service."""
    pusher = WebPusher(
        {"endpoint": push.endpoint, "keys": {"p256dh": push.p256dh, "auth": push.auth}}
    )
    body = pusher.encode(json.dumps(push.payload, ensure_ascii=False).encode(), "aes128gcm")["body"]
    url = urlsplit(push.endpoint)
    headers = {
        **_vapid_headers(f"{url.scheme}://{url.netloc}", int(time.time()) // VAPID_RESIGN_SECONDS),
        "Content-Encoding": "aes128gcm",
        "TTL": str(PUSH_TTL_SECONDS),
        "Topic": push.topic,
        "Urgency": "high",
    }
    return {"body": body, "headers": headers}


@functools.lru_cache(maxsize=1024)
def _vapid_headers(audience: str, period: int) -> dict[str, str]:
    """The VAPID headers for one push service, signed once per VAPID_RESIGN_SECONDS (an ECDSA
    signature per push cost more than the encryption)."""
    claims = {
        "sub": settings.VAPID_SUBJECT,
        "aud": audience,
        "exp": (period + 1) * VAPID_RESIGN_SECONDS + VAPID_CLAIM_SECONDS,
    }
    return dict(vapid().sign(claims))


def _outcome(answer: requests.Response) -> Outcome:
    status = answer.status_code
    if 200 <= status < 300:
        return Outcome(PushResult.SENT)
    if status in (404, 410):
        return Outcome(PushResult.GONE)
    if 300 <= status < 400:
        return Outcome(PushResult.FAILED, f"{status}: redirect not followed")
    said = answer.raw.read(REASON_LENGTH, decode_content=False).decode("utf-8", "replace")
    reason = _reason(f"{status} {answer.reason}: {said}")
    if status == 429 or status >= 500:
        return Outcome(PushResult.FAILED, reason)
    return Outcome(PushResult.REFUSED, reason)  # 400, 401, 403, 413...: never as it is


def _reason(text: str) -> str:
    return text[:REASON_LENGTH]


def reason_of(error: Exception) -> str:
    return _reason(f"{type(error).__name__}: {error}")


# ----------------------------------------------------------------------------- the deadline

_watched = threading.local()


class Deadline:
    def __init__(self) -> None:
        self.sockets: list[socket.socket] = []
        self.passed = False

    def cut(self) -> None:
        self.passed = True
        for sock in self.sockets:
            with suppress(OSError):
                # socket.socket's own shutdown, also under TLS: the reader sees the end at once.
                socket.socket.shutdown(sock, socket.SHUT_RDWR)


@contextmanager
def hard_deadline(seconds: float) -> Iterator[Deadline]:
    """Cut the sockets this thread's push uses once `seconds` have passed: a blocked read then
    ends at once, where a per-read timeout lets an endpoint trickling a byte at a time hold a
    sender for as long as it likes."""
    deadline = Deadline()
    timer = threading.Timer(seconds, deadline.cut)
    timer.daemon = True
    _watched.deadline = deadline
    timer.start()
    try:
        yield deadline
    finally:
        timer.cancel()
        _watched.deadline = None


def _watch(sock: socket.socket | None) -> None:
    deadline = getattr(_watched, "deadline", None)
    if sock is not None and deadline is not None:
        deadline.sockets.append(sock)


# ----------------------------------------------------------------------------- pinned sockets


class _PinnedConnection(HTTPConnection):
    """Connects only to an address of the host that push_endpoints.public_addresses just
    checked, and puts its socket under the thread's hard deadline."""

    def _new_conn(self) -> socket.socket:
        last_error: OSError | None = None
        for address in push_endpoints.public_addresses(self.host, self.port):
            try:
                sock = create_connection(
                    (address, self.port),
                    self.timeout,
                    source_address=self.source_address,
                    socket_options=self.socket_options,
                )
            except TimeoutError as error:
                raise ConnectTimeoutError(self, f"Connection to {self.host} timed out") from error
            except OSError as error:
                last_error = error
                continue
            _watch(sock)
            return sock
        raise NewConnectionError(self, f"Failed to connect to {self.host}: {last_error}")

    def request(self, *args: Any, **kwargs: Any) -> None:
        _watch(self.sock)  # a kept-alive connection: under this push's deadline too
        super().request(*args, **kwargs)


class _PinnedHTTPSConnection(_PinnedConnection, HTTPSConnection):
    pass


class _PinnedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _PinnedConnection


class _PinnedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _PinnedHTTPSConnection


class PinnedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _PinnedHTTPPool,
            "https": _PinnedHTTPSPool,
        }
