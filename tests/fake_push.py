"""A fake web push service on 127.0.0.1, and a fake browser's keys to read what it received.

The push service is a plain HTTP server: every POST to /push/<device> is recorded and answered
201, or 410 for devices marked gone (as a real service answers for a dropped subscription), or
307 to another path for devices marked redirected. HangingListener accepts connections and never
answers (or trickles a byte now and then). Both listen on 127.0.0.1 only, which the club lets in
only with settings.PUSH_ALLOW_LOOPBACK. Used by the notification tests and by bench/web.py.
"""

import base64
import contextlib
import json
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Received:
    device: str
    headers: dict[str, str]  # names lowercased
    body: bytes


@dataclass
class FakeBrowser:
    """One device's push keys, as a browser makes them on subscribe()."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def subscription_json(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def read(self, push: Received) -> dict[str, Any]:
        """Decrypt a push meant for this device (aes128gcm) and parse its JSON."""
        plain = http_ece.decrypt(
            push.body, private_key=self.private_key, auth_secret=self.auth_secret
        )
        return json.loads(plain)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the club sends many pushes at once


class FakePushService:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self.gone: set[str] = set()
        self.redirected: dict[str, str] = {}  # device: the path it is sent on to
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as push services do

            def do_POST(self) -> None:
                device = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with service._lock:
                    headers = {name.lower(): value for name, value in self.headers.items()}
                    service.received.append(Received(device, headers, body))
                    status = 410 if device in service.gone else 201
                    location = service.redirected.get(device)
                self.send_response(307 if location else status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> "FakePushService":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def browser(self, device: str) -> FakeBrowser:
        host, port = self._server.server_address[:2]
        return FakeBrowser(endpoint=f"http://{host!s}:{port}/push/{device}")

    def to(self, device: str) -> list[Received]:
        with self._lock:
            return [push for push in self.received if push.device == device]


class HangingListener:
    """Accepts connections on 127.0.0.1 and never answers them; with `trickle` it sends a byte of
    a never-ending response every `trickle` seconds instead. Stops by itself at `stop()`, or
    after `lifetime` seconds at the latest, closing every connection."""

    def __init__(self, *, trickle: float | None = None, lifetime: float = 120.0) -> None:
        self.trickle = trickle
        self.accepted = 0
        self._stopped = threading.Event()
        self._deadline = time.monotonic() + lifetime
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(0.1)
        self._connections: list[socket.socket] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.getsockname()[1]}"

    def start(self) -> "HangingListener":
        self._thread.start()
        return self

    def _serve(self) -> None:
        sent = 0.0
        while not self._stopped.is_set() and time.monotonic() < self._deadline:
            try:
                connection, _ = self._server.accept()
                self._connections.append(connection)
                self.accepted += 1
                if self.trickle is not None:
                    connection.sendall(b"HTTP/1.1 201 Created\r\nX-Slow: ")
            except TimeoutError:
                pass
            if self.trickle is not None and time.monotonic() - sent >= self.trickle:
                sent = time.monotonic()
                for connection in self._connections:
                    with contextlib.suppress(OSError):
                        connection.sendall(b"X")
        for connection in self._connections:
            connection.close()
        self._server.close()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=5)
