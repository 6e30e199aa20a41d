"""Real Daphne processes serving the test database, and websocket clients over real TCP."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import websockets
from django.db import connection

from scripts.serve import DAPHNE_MAX_MESSAGE_BYTES
from tests.support import failure_report
from tests.support.live import cookie_headers, match_version

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Daphne:
    """One server process on a free port, serving the test database."""

    def __init__(self, tmp_path: Path, *, prefix: str, redis: bool) -> None:
        self.port = free_port()
        self.log = tmp_path / f"daphne-{self.port}.log"
        db = connection.settings_dict
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": (
                f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                f"/{db['NAME']}"
            ),
            "CHANNELS_PREFIX": prefix,
            "LIVE_RATE_PER_SECOND": "10000",
            "LIVE_RATE_BURST": "10000",
            "VAR_DIR": str(tmp_path / "var"),
            "PGAPPNAME": "daphne-under-test",  # so teardown can find its database sessions
        }
        if not redis:
            self.env.pop("REDIS_URL", None)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Daphne:
        command = [
            str(BIN / "daphne"),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--websocket-max-message-size",
            str(DAPHNE_MAX_MESSAGE_BYTES),
            "config.asgi:application",
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        failure_report.watch_log(
            f"Daphne :{self.port}",
            self.log,
            lambda: self.process is not None and self.process.poll() is None,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"Daphne did not start: {self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no disconnect handler runs, nothing is cleaned up."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def url(self, table_id: int) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/table/{table_id}/"


class Remote:
    """A websocket client over a real TCP connection, with the session cookie of a player."""

    def __init__(self, cookie: str) -> None:
        self.cookie = cookie
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.frames: list[dict[str, Any]] = []

    async def connect(self, url: str) -> Remote:
        self.ws = await websockets.connect(
            url,
            origin="http://127.0.0.1",
            additional_headers={"Cookie": self.cookie},
            open_timeout=30,
            # The protocol's own pings keep the table alive; the library's keepalive would drop
            # a socket whose server is merely slow (a loaded CI machine), not gone.
            ping_interval=None,
        )
        first = await self.recv()
        assert first["type"] == "state"
        return self

    @property
    def version(self) -> int:
        return self.state["version"] if self.state else -1

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(frame)
        if frame["type"] == "state" and frame["version"] >= self.version:
            self.state = frame
        return frame

    async def until_version(self, version: int, timeout: float = 10) -> None:
        """Read until a ``state`` at ``version`` or later, each frame within ``timeout``."""
        while self.version < version:
            await self.recv(timeout)

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        action_id = uuid.uuid4().hex
        await self.ws.send(
            json.dumps({"type": "act", "version": self.version, "id": action_id, "action": action})
        )
        while True:
            frame = await self.recv()
            if frame["type"] in ("ack", "error") and frame.get("id") == action_id:
                return frame

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def session_cookie(player) -> str:
    headers = dict(cookie_headers(player))
    return headers[b"cookie"].decode()


async def play_remotes(table_id, remotes, rng, *, stop=None) -> int:
    moves = 0
    while True:
        version = await match_version(table_id)
        for remote in remotes.values():
            await remote.until_version(version)
        state = remotes[0].state
        if state["status"] != "playing" or (stop and stop(moves, state)):
            return moves
        actor = remotes[state["view"]["to_act"]]
        answer = await actor.act(rng.choice(actor.state["view"]["legal"]))
        assert answer["type"] == "ack", answer
        moves += 1
