"""Real Daphne processes and real websocket clients (issue 6 acceptance):

- a server killed with SIGKILL mid-hand and started again: both players reconnect and finish
  the same match;
- two server processes sharing PostgreSQL and Redis: players on different processes finish a
  match.

The servers are subprocesses pointed at the test database, so these need PostgreSQL (SQLite's
test database lives in this process's memory).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from django.conf import settings
from django.db import connection

from games.models import Match, MatchEvent
from tests.games.test_live_support import cookie_headers, match_version, start_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Daphne:
    """One server process on a free port, serving the test database."""

    def __init__(self, tmp_path: Path, *, prefix: str, redis: bool) -> None:
        self.port = _free_port()
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
            "8192",
            "config.asgi:application",
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
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


@pytest.fixture
def servers(tmp_path):
    started: list[Daphne] = []

    def make(*, prefix: str, redis: bool) -> Daphne:
        server = Daphne(tmp_path, prefix=prefix, redis=redis)
        started.append(server)
        return server

    yield make
    for server in started:
        server.kill()
    # A killed server's database sessions may linger a moment; end them so the test database
    # can be flushed and dropped.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = 'daphne-under-test'"
        )


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
            open_timeout=10,
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

    async def until_version(self, version: int) -> None:
        while self.version < version:
            await self.recv()

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


def _cookie(player) -> str:
    headers = dict(cookie_headers(player))
    return headers[b"cookie"].decode()


async def _play(table_id, remotes, rng, *, stop=None) -> int:
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


async def test_a_server_killed_mid_hand_restarts_and_both_players_finish_the_same_match(
    alice, bob, servers
):
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob], options={"points": 11})
    cookies = [await sync_to_async(_cookie)(p) for p in (alice, bob)]
    server = servers(prefix=f"restart-{uuid.uuid4().hex[:8]}", redis=False)
    await sync_to_async(server.start)()
    remotes = {}
    for cookie in cookies:
        remote = await Remote(cookie).connect(server.url(table.pk))
        remotes[remote.state["seat"]] = remote
    rng = random.Random(11)

    def mid_hand(moves, state):
        return moves >= 12 and state["view"]["phase"] == "play" and state["view"]["trick"]

    moves = await _play(table.pk, remotes, rng, stop=mid_hand)
    before = {seat: remote.state for seat, remote in remotes.items()}

    await sync_to_async(server.kill)()
    for remote in remotes.values():
        with pytest.raises(websockets.ConnectionClosed):
            await remote.recv(timeout=5)
    await sync_to_async(server.start)()
    for seat, remote in remotes.items():
        await remote.connect(server.url(table.pk))
        assert remote.state["version"] == before[seat]["version"]
        assert remote.state["view"] == before[seat]["view"]  # the same hand, the same trick
    moves += await _play(table.pk, remotes, rng)

    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    assert match.status == Match.Status.FINISHED
    events = await sync_to_async(MatchEvent.objects.filter(match=match).count)()
    assert events == moves == match.version

    # The frame limits: over the consumer's 4 KiB an error then 4009; over Daphne's 8 KiB,
    # Daphne itself drops the connection (no close frame: 1006) before the application sees it.
    for remote, size, answered, code in (
        (remotes[0], 5000, True, 4009),
        (remotes[1], 10000, False, None),
    ):
        await remote.ws.send(json.dumps({"type": "sync", "pad": "x" * size}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:  # frames still on their way (match_over, …), then the answer and the close
                frame = await remote.recv()
                if frame["type"] == "error":
                    assert answered and frame["code"] == "too_big"
        received = closed.value.rcvd
        assert (received.code if received else None) == code, (size, closed.value)


@pytest.mark.redis
async def test_players_on_two_server_processes_sharing_redis_and_postgres_finish_a_match(
    alice, bob, eve, servers
):
    assert settings.REDIS_URL
    table = await sync_to_async(start_table)("japanese_whist", [alice, bob], options={"points": 5})
    prefix = f"two-{uuid.uuid4().hex[:8]}"
    first = servers(prefix=prefix, redis=True)
    second = servers(prefix=prefix, redis=True)
    await sync_to_async(first.start)()
    await sync_to_async(second.start)()
    remotes = {}
    for player, server in ((alice, first), (bob, second)):
        remote = await Remote(await sync_to_async(_cookie)(player)).connect(server.url(table.pk))
        remotes[remote.state["seat"]] = remote
    watcher = await Remote(await sync_to_async(_cookie)(eve)).connect(first.url(table.pk))
    moves = await _play(table.pk, remotes, random.Random(12))
    await watcher.until_version(moves)
    assert watcher.state["status"] == "finished" and "hand" not in watcher.state["view"]
    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    assert match.status == Match.Status.FINISHED and match.version == moves
    for remote in (*remotes.values(), watcher):
        await remote.close()
