"""The load bench's CPU accounting (``CpuWindow``): a process that ended inside the window still
counts, through the parent that waited for it. The server replaces a database connection past
its age, and the backends that closed in a window had made its PostgreSQL CPU read as 0."""

from __future__ import annotations

import os
import subprocess
import sys

from bench.load import CpuWindow

BURN = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"


def test_a_child_that_ended_in_the_window_counts_through_its_parent():
    window = CpuWindow({"children": lambda: []}, parents={"children": os.getpid})
    window.start()
    subprocess.run([sys.executable, "-c", BURN], check=True)  # run and waited for: reaped
    spent = window.stop()
    assert spent["children"] >= 0.25

