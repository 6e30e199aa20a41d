"""Reading the server's CPU and memory (``/proc``), and the statistics of what the bench
measured."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (the first is the state)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (all its threads)."""
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def reaped_cpu_seconds(pid: int) -> float:
    """User + system CPU time of the children ``pid`` has waited for, over their whole lives:
    for the PostgreSQL postmaster, its backends that closed."""
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[13]) + int(fields[14])) / CLOCK_TICKS


def parent_pid(pid: int) -> int | None:
    fields = _stat(pid)
    return None if fields is None else int(fields[1])


def children_of(parent: int | None) -> list[int]:
    """The live processes whose parent is ``parent``: for the postmaster, all of PostgreSQL's
    backends and background processes."""
    if parent is None:
        return []
    return [
        int(entry)
        for entry in os.listdir("/proc")
        if entry.isdigit() and parent_pid(int(entry)) == parent
    ]


def rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except FileNotFoundError:
        pass
    return 0


def load_average() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


def machine_ticks() -> tuple[int, int]:
    """Busy and total CPU ticks of the whole machine since boot (every core, every process):
    two readings give the share of the machine a phase kept busy, the bench's own client and
    whatever else ran beside it included."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return sum(fields) - idle, sum(fields)


def busy_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    """Percent of the machine busy between two ``machine_ticks`` readings."""
    total = after[1] - before[1]
    return round(100 * (after[0] - before[0]) / total, 1) if total > 0 else 0.0


def cpu_model() -> str:
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "?"


@dataclass
class CpuWindow:
    """CPU seconds spent by groups of processes between ``start`` and ``stop``."""

    groups: dict[str, Callable[[], Iterable[int]]]
    # The parent of a group's processes, which waits for those that end: their CPU in the
    # window is then its reaped time's growth less what they had spent before the window.
    parents: dict[str, int | None] = field(default_factory=dict)
    before: dict[str, dict[int, float]] = field(default_factory=dict)
    reaped_before: dict[str, float] = field(default_factory=dict)
    spent: dict[str, float] = field(default_factory=dict)

    def start(self) -> None:
        self.before = {
            name: {pid: cpu_seconds(pid) for pid in pids()} for name, pids in self.groups.items()
        }
        self.reaped_before = {name: self._reaped(name) for name in self.parents}

    def _reaped(self, name: str) -> float:
        parent = self.parents[name]
        return 0.0 if parent is None else reaped_cpu_seconds(parent)

    def stop(self) -> dict[str, float]:
        for name, pids in self.groups.items():
            earlier = self.before.get(name, {})
            now = {pid: cpu_seconds(pid) for pid in pids()}
            # One that began in the window counts from zero. One that ended in it took its CPU
            # time with it: left out, unless the group's parent waited for it.
            self.spent[name] = sum(
                spent - earlier.get(pid, 0.0)
                for pid, spent in now.items()
                if spent >= earlier.get(pid, 0.0)
            )
            if name in self.parents:
                ended = sum(spent for pid, spent in earlier.items() if pid not in now)
                self.spent[name] += self._reaped(name) - self.reaped_before[name] - ended
        return self.spent


# --- Statistics -----------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def latency_summary(values: list[float]) -> dict[str, float | int | None]:
    """Milliseconds; an answer that never came counts as infinitely late (inf)."""

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 1)

    return {
        "count": len(values),
        "p50_ms": ms(percentile(values, 0.5)),
        "p99_ms": ms(percentile(values, 0.99)),
        "max_ms": ms(max(values) if values else None),
        # What a player feels, whatever the percentiles say (issue 43 § 2).
        "over_1s": sum(value > 1.0 for value in values),
        "over_3s": sum(value > 3.0 for value in values),
    }
