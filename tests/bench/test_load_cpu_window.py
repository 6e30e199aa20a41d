"""The load bench's CPU accounting (``CpuWindow``): a process that ended inside the window still
counts, through the parent that waited for it. The server replaces a database connection past
its age, and the backends that closed in a window had made its PostgreSQL CPU read as 0."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.load.stats import CpuWindow, cpu_seconds

BURN = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"


def test_a_child_that_ended_in_the_window_counts_through_its_parent():
    window = CpuWindow({"children": lambda: []}, parents={"children": os.getpid()})
    window.start()
    subprocess.run([sys.executable, "-c", BURN], check=True)  # run and waited for: reaped
    spent = window.stop()
    assert spent["children"] >= 0.25


def test_a_child_that_ended_counts_only_what_it_spent_inside_the_window():
    """Its CPU before the window is already in its parent's reaped time at the end: left out
    (counted, a connection closed in a window had made PostgreSQL 4.2 ms a move)."""
    child = subprocess.Popen(
        [sys.executable, "-c", BURN + "\nimport sys\nsys.stdin.read()"], stdin=subprocess.PIPE
    )
    while child.poll() is None and cpu_seconds(child.pid) < 0.28:  # then it waits on stdin
        time.sleep(0.01)
    window = CpuWindow(
        {"children": lambda: [child.pid] if child.poll() is None else []},
        parents={"children": os.getpid()},
    )
    window.start()
    child.communicate(b"")  # it ends, and is waited for, inside the window
    assert window.stop()["children"] < 0.1
