"""What the benches measure with: percentiles and the CPU time of the processes they start."""

import os
from collections.abc import Callable, Sequence


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def cpu_seconds(match: Callable[[int, int, str], bool]) -> float:
    """User + system CPU time of the processes `match(pid, ppid, cmdline)` picks (Linux /proc)."""
    total = 0
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
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds of a process and its children."""
    return cpu_seconds(lambda entry, parent, _cmdline: pid in (entry, parent))


def database_cpu(database: str) -> float:
    """CPU seconds of the PostgreSQL backends serving `database`."""
    return cpu_seconds(lambda _entry, _parent, cmdline: f" {database} " in cmdline)
