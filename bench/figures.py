"""What the benches measure with: percentiles, an interval for a median, the CPU time of the
processes they start, and in-process timings of a page or endpoint."""

import gc
import math
import os
import time
from collections.abc import Callable, Sequence
from typing import Any


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def median_interval(values: list[float]) -> tuple[float, float, float]:
    """The narrowest interval between order statistics (the k-th smallest and the k-th largest)
    that holds the median of the rounds' distribution with at least 95 % confidence, or the
    widest (smallest to largest) where so few rounds cannot: (low, high, its confidence). No
    assumption on the distribution: each round is as likely above the median as below."""
    ordered, n = sorted(values), len(values)

    # P(the k-th smallest <= median <= the k-th largest) = 1 - 2 P(Binomial(n, 1/2) < k)
    def confidence(k: int) -> float:
        return 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2**n

    k = 1
    while k + 1 <= n // 2 and confidence(k + 1) >= 0.95:
        k += 1
    return ordered[k - 1], ordered[n - k], confidence(k)


def cpu_seconds(match: Callable[[int, int, str], bool]) -> float:
    """User + system CPU time of the processes `match(pid, ppid, cmdline)` picks (Linux /proc)."""
    return sum(cpu_by_process(match).values())


def cpu_by_process(match: Callable[[int, int, str], bool]) -> dict[int, float]:
    """`cpu_seconds` of each process `match` picks, by pid."""
    seconds = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat_file:
                fields = stat_file.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline_file:
                cmdline = cmdline_file.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if match(int(entry), int(fields[1]), cmdline):
            seconds[int(entry)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seconds


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds the processes alive at `after` used since `before` (a process gone in
    between takes its time with it: subtracting totals could come out negative)."""
    return sum(used - before.get(pid, 0.0) for pid, used in after.items())


def process_cpu(pid: int) -> float:
    """CPU seconds of a process and its children."""
    return cpu_seconds(lambda entry, parent, _cmdline: pid in (entry, parent))


def database_cpu(database: str) -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend serving `database`, by pid: what it used between two
    readings is `spent(before, after)`, since a connection is replaced every CONN_MAX_AGE."""
    return cpu_by_process(lambda _entry, _parent, cmdline: f" {database} " in cmdline)


def timed_gets(client: Any, path: str, requests: int) -> tuple[list[float], list[float], int, Any]:
    """GETs `path` `requests` times through a Django test client: wall time and this process's
    CPU time of each (ms), then the SQL queries and the answer of one more. CPU leaves out the
    waits for PostgreSQL, which on a shared machine say more about the neighbours."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(10):  # warm up, and the answer is there
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.content[:200])
    # As a web worker after start-up (gunicorn.conf.py): what is loaded so far, here the bench's
    # own data too, which a worker never holds, stays out of the collector's full passes.
    gc.collect()
    gc.freeze()
    wall, cpu = [], []
    for _ in range(requests):
        started, cpu_started = time.perf_counter(), time.process_time()
        answer = client.get(path)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
        assert answer.status_code == 200, path
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(path)
    return wall, cpu, len(queries), answer
