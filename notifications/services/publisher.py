"""The drain's publish: once per transaction that wrote notifications, at its commit, and at
most once per DRAIN_PUBLISH_INTERVAL in a process."""

import math
import threading
import time
import weakref
from collections.abc import Callable

from django.db import transaction

from club.broker import publish

# The most a notification waits for its drain to be published (see DrainPublisher).
DRAIN_PUBLISH_INTERVAL = 1.0


class _DrainAtCommit:
    """A transaction's one drain publish, registered with its commit hooks.

    Django holds the only strong reference to it, in the transaction's commit hooks, and drops
    it when the transaction, or the savepoint it was registered in, rolls back; at the commit it
    runs. So while this thread's weak reference to it lives and it has not run, the current
    transaction already publishes a drain at its commit.
    """

    def __init__(self) -> None:
        self.ran = False

    def __call__(self) -> None:
        self.ran = True
        _publish_drain()


_drain_registered = threading.local()  # .marker: a weak reference to the last _DrainAtCommit


def drain_after_commit() -> None:
    """One drain publish per transaction, however many notifications it wrote."""
    marker_ref: weakref.ref[_DrainAtCommit] | None = getattr(_drain_registered, "marker", None)
    pending = marker_ref() if marker_ref is not None else None
    if pending is not None and not pending.ran:
        return
    marker = _DrainAtCommit()
    _drain_registered.marker = weakref.ref(marker)
    transaction.on_commit(marker)


class DrainPublisher:
    """Publishes the drain task after commits, at most once per `interval` in this process.

    Under load a move commits every few milliseconds and each publish costs about half a
    millisecond of CPU. A publish within `interval` of the last one goes out with a countdown to
    the interval's end instead, and commits before then ride on it (a drain takes every pending
    row), so a notification waits at most `interval` longer.
    """

    def __init__(self, *, interval: float, monotonic: Callable[[], float] = time.monotonic):
        self.interval = interval
        self.monotonic = monotonic
        self._lock = threading.Lock()
        self._last_due = -math.inf  # when the last published drain runs

    def __call__(self) -> None:
        from notifications.tasks import drain_outbox  # the tasks call the services

        with self._lock:
            now = self.monotonic()
            if now < self._last_due:
                return  # a drain already queued runs after this commit
            countdown = max(0.0, self._last_due + self.interval - now)
            self._last_due = now + countdown
        publish(drain_outbox, countdown=countdown)


_publish_drain = DrainPublisher(interval=DRAIN_PUBLISH_INTERVAL)
