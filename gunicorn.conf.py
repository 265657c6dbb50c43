"""Gunicorn settings for the web process: `gunicorn canasta_club.wsgi`, run from this folder.

gthread workers keep HTTP keep-alive connections open (a program playing through the API reuses
one) without holding a thread per idle connection. Two workers per core; `WEB_THREADS` threads
each, 1 by default: a second thread in the same process mostly waits for the GIL and costs CPU
per request (bench/api.py). Environment: BIND, PORT, WEB_CONCURRENCY (workers), WEB_THREADS.

gunicorn has no timeout for a request's headers: a client sending them a byte at a time holds a
thread for as long as it likes. So it listens on loopback only, behind the reverse proxy that
meets the clients and passes on whole requests (deploy/nginx.conf; bench/slow_clients.py
measures both). BIND=0.0.0.0:8000 exposes it anyway, for a proxy on another host.
"""

import gc
import os

bind = os.environ.get("BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1)))
threads = int(os.environ.get("WEB_THREADS", "1"))
# Longer than a client's pause between two moves, so a playing client keeps its connection.
keepalive = 75
timeout = 30


def post_worker_init(worker: object) -> None:
    """Moves everything the worker loaded at start-up (Django, the apps, their modules) out of
    the collector's reach: a full collection would otherwise walk all of it again, a pause of
    tens of milliseconds in whichever request triggers it (bench/web.py measures pages alike)."""
    gc.freeze()
