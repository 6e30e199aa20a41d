"""A Redis server of a test's own, which the test may kill and start again (empty, as a Redis
that keeps nothing on disk comes back after a crash)."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis

from tests.support import failure_report


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed"
        self.binary = binary
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        command = [
            self.binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.folder),
        ]
        with open(self.folder / "redis.log", "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        failure_report.watch_log(
            f"redis-server :{self.port}",
            self.folder / "redis.log",
            lambda: self.process is not None and self.process.poll() is None,
        )
        deadline = time.monotonic() + 20
        client = redis.Redis(port=self.port, socket_timeout=1)
        while time.monotonic() < deadline:
            assert self.process.poll() is None, (self.folder / "redis.log").read_text()
            try:
                if client.ping():
                    return self
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def kill(self) -> None:
        """SIGKILL: every connection drops at once, and all it held is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def run_id(self) -> str:
        return str(redis.Redis(port=self.port, socket_timeout=2).info("server")["run_id"])
