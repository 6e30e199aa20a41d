"""`make run`'s server: Daphne and the Celery worker come up together and stop on Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
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


@pytest.mark.slow
def test_serve_answers_the_home_page_and_stops_cleanly_on_ctrl_c(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env["VAR_DIR"] = str(tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "migrate_all"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
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
                time.sleep(0.5)
        assert status == 200
        # The worker (with beat) comes up beside Daphne; on a busy machine it is slower.
        while time.monotonic() < deadline and not any(" ready." in line for line in lines):
            time.sleep(0.5)
        assert any("celery@" in line and " ready." in line for line in lines), "".join(lines)
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
        reader.join(timeout=10)
        output = "".join(lines)
        assert server.returncode == 0, output
        assert "Stopped." in output
        assert "Warm shutdown" in output  # the worker stopped on the same Ctrl-C
    finally:
        if server.poll() is None:
            server.kill()
