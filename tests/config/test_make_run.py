"""`make run`'s server: Daphne, the Celery worker and beat come up together, log no traceback,
and stop on Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _collect(stream, lines: list[str]) -> None:
    """Read the server's output as it comes, so the test can wait for the worker to be ready."""
    for line in stream:
        lines.append(line)


def _embedded_env(var_dir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env["VAR_DIR"] = str(var_dir)
    return env


def _migrate_all(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate_all"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        # Every app's migrations on SQLite: ~20 s quiet, past 120 s beside a suite run twice over
        # on two cores (a full run, 7 December 2026).
        timeout=300,
    )


def _wait_for(lines: list[str], what: str, found, deadline: float) -> None:
    while time.monotonic() < deadline and not found():
        time.sleep(0.3)
    assert found(), f"waited for {what}; the server said:\n{''.join(lines[-60:])}"


@pytest.mark.slow
@pytest.mark.parametrize("start", ["first", "second"])
def test_a_first_start_serves_runs_a_task_logs_no_traceback_and_stops_on_ctrl_c(tmp_path, start):
    """`make run` from an empty var/, twice: the three processes start at once and race for
    the broker and the databases; the log stays clean. The broker's queue row is made before
    they start, so none of them inserts it (two did at once: kombu's IntegrityError)."""
    env = _embedded_env(tmp_path / "var")
    _migrate_all(env)
    with sqlite3.connect(tmp_path / "var" / "celery" / "broker.sqlite3") as broker:
        assert [name for (name,) in broker.execute("SELECT name FROM kombu_queue")] == ["celery"]
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "scripts/serve.py", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=_collect, args=(server.stdout, lines), daemon=True)
    reader.start()
    try:
        status = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and status is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    status = response.status
            except OSError:
                time.sleep(0.3)
        assert status == 200, "".join(lines)
        # The worker (with beat) comes up beside Daphne; on a busy machine it is slower. Beat
        # sends its sweeps at once, and the worker runs one: both used the broker.
        _wait_for(
            lines,
            "the worker to be ready",
            lambda: any("celery@" in line and " ready." in line for line in lines),
            deadline,
        )
        _wait_for(
            lines,
            "a task that beat sent to succeed in the worker",
            lambda: any("Task games.tasks." in line and "succeeded" in line for line in lines),
            deadline,
        )
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
        reader.join(timeout=10)
        output = "".join(lines)
        assert server.returncode == 0, output
        assert "Stopped." in output
        assert "Warm shutdown" in output  # the worker stopped on the same Ctrl-C
        assert "Traceback" not in output, output
    finally:
        if server.poll() is None:
            server.kill()
