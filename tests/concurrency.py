"""Running things at the same instant, each in its own thread and database connection."""

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def run_in_threads(*targets: Callable[[], Any]) -> list[Any]:
    """Run the callables at the same moment in threads of their own (own DB connections); their
    results in order, an exception standing for a result where one was raised."""
    barrier = threading.Barrier(len(targets))
    results: list[Any] = [None] * len(targets)

    def run(index: int, target: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = target()
        except Exception as exc:
            results[index] = exc
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(index, target)) for index, target in enumerate(targets)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
