"""A fake web push service on 127.0.0.1, and a fake browser's keys to read what it received.

The push service is a plain HTTP server: every POST to /push/<device> is recorded and answered
201, or 410 for devices marked gone (as a real service answers for a dropped subscription).
Used by the notification tests and by bench/web.py.
"""

import base64
import json
import os
import threading
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


class FakePushService:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self.gone: set[str] = set()
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
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
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
