"""Celery processes of a test's own (a worker, beat), on the environment of its servers."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

from tests.support import failure_report
from tests.support.daphne import BIN, ROOT

READY = {"worker": " ready.", "beat": "beat: Starting..."}


class CeleryProcess:
    """``celery -A config worker`` or ``beat``, logging to a file of the test's."""

    def __init__(self, env: dict[str, str], folder: Path, kind: str, *args: str) -> None:
        self.kind = kind
        self.env = {**env, "PGAPPNAME": "celery-under-test"}
        self.log = folder / f"celery-{kind}.log"
        self.command = [str(BIN / "celery"), "-A", "config", kind, "--loglevel=INFO", *args]
        if kind == "beat":
            self.command += ["--schedule", str(folder / "beat-schedule")]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> CeleryProcess:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        failure_report.watch_log(
            f"celery {self.kind}",
            self.log,
            lambda: self.process is not None and self.process.poll() is None,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            if READY[self.kind] in self.log.read_text(errors="replace"):
                return self
            time.sleep(0.2)
        raise AssertionError(f"celery {self.kind} did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
