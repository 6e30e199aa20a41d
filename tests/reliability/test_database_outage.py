"""Issue 25, defect 6: an unavailable database is an expected condition, logged as one line per
episode in each process, not a traceback per request.

The site's processes, started with the commands ``scripts/serve.py`` gives them (two Daphnes on
one port, a Celery worker on threads, beat firing the live sweep every second), reach the test
database through a TCP proxy (``tests.support.db_proxy``). Two players sit at a table over real
websockets; the proxy then drops every connection and refuses new ones for five seconds, as a
PostgreSQL that crashed and restarts looks to its clients.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async as sync_to_async
from django.db import connection

from scripts.serve import CHILD_ENVIRONMENT_DEFAULTS, commands, listening_socket
from tests.support import failure_report
from tests.support.daphne import Remote, play_remotes, session_cookie
from tests.support.db_proxy import DatabaseProxy
from tests.support.live import start_table

from .conftest import ROOT, end_server_sessions

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

OUTAGE_SECONDS = 5
WAIT_SECONDS = 90  # generous: a loaded 2-core machine runs four servers beside the test
WEB_PROCESSES = 2
OUTAGE_LINE = "PostgreSQL unavailable: "
BACK_LINE = "PostgreSQL answers again"
# A log line about the database failing: after the change, only the two lines above are.
ABOUT_THE_DATABASE = re.compile(
    r"psycopg|OperationalError|InterfaceError|connection failed|closed the connection|PostgreSQL"
)
CLOSE_UNAVAILABLE = 4011


class Site:
    """The site's processes on the proxied test database, each with a log of its own."""

    def __init__(self, tmp_path: Path, database_port: int) -> None:
        self.listener = listening_socket("127.0.0.1", 0)
        self.port = self.listener.getsockname()[1]
        self.commands = commands(self.listener.fileno(), WEB_PROCESSES)
        db = connection.settings_dict
        self.env = {
            **CHILD_ENVIRONMENT_DEFAULTS,
            **{
                key: value
                for key, value in os.environ.items()
                if key not in {"DJANGO_SETTINGS_MODULE", "DJANGO_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE"}
            },
            # The settings `make run` loads, with persistent connections as in production.
            "DEBUG": "",
            "DATABASE_URL": f"postgres://{db['USER']}@127.0.0.1:{database_port}/{db['NAME']}",
            "VAR_DIR": str(tmp_path / "var"),
            "PGAPPNAME": "reliability-under-test",  # end_server_sessions() finds them
            "CHANNELS_PREFIX": f"outage-{uuid.uuid4().hex[:8]}",
            "LIVE_HEARTBEAT_SECONDS": "1",  # the heartbeat meets the outage too
            "LIVE_SWEEP_SECONDS": "1",
            "TURN_SECONDS": "600",  # no turn clock runs out and moves the table on its own
            # One episode by construction: whatever fails later is this outage's broken
            # connections, however slowly a loaded machine gets to them.
            "DATABASE_OUTAGE_QUIET_SECONDS": "600",
        }
        self.logs = {name: tmp_path / f"{name}.log" for name in self.commands}
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def start(self) -> Site:
        for name, command in self.commands.items():
            with open(self.logs[name], "ab") as log:
                self.processes[name] = subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    pass_fds=(self.listener.fileno(),),
                )
            process = self.processes[name]
            failure_report.watch_log(
                name, self.logs[name], lambda process=process: process.poll() is None
            )
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            for name, process in self.processes.items():
                assert process.poll() is None, f"{name} exited:\n{self.log(name)}"
            if " ready." in self.log("worker") and self._answers():
                return self
            time.sleep(0.3)
        raise AssertionError(f"The site did not start:\n{self.log('worker')}")

    def _answers(self) -> bool:
        try:
            return self.page("/")[0] == 200
        except OSError:
            return False

    def page(self, path: str, cookie: str | None = None) -> tuple[int, str]:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        if cookie:
            request.add_header("Cookie", cookie)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def log(self, name: str) -> str:
        return self.logs[name].read_text(errors="replace")

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        self.listener.close()


def _pages(table_id: int) -> list[str]:
    return ["/", "/ladder/", f"/tables/{table_id}/"]


def _browse(site: Site, paths: list[str], cookie: str, seconds: float) -> list[tuple[str, int]]:
    """Every page in turn, as a visitor and as a player, for ``seconds``."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in paths:
            for who in (None, cookie):
                status, html = site.page(path, who)
                seen.append((path, status))
                if status == 503:
                    assert "503" in html and "Back in a moment" in html, html
        time.sleep(0.2)
    return seen


def _statuses(site: Site, paths: list[str], cookie: str) -> list[int]:
    """Every page once as a visitor and once as a player."""
    return [site.page(path, who)[0] for path in paths for who in (None, cookie)]


async def _answered(remote: Remote, message: dict[str, Any], kinds: set[str]) -> dict[str, Any]:
    """Send ``message`` until a frame of ``kinds`` comes back, again after each ``busy``, as the
    page does."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        await remote.ws.send(json.dumps(message))
        while True:
            frame = await remote.recv(timeout=WAIT_SECONDS)
            if frame["type"] in kinds:
                return frame
            if frame["type"] == "error":
                assert frame["code"] == "busy", frame
                break
        await asyncio.sleep(0.2)
    raise AssertionError(f"No {kinds} for {message}")


async def _closed_with(site: Site, path: str, cookie: str) -> int | None:
    """Open a socket and return the code it is closed with."""
    async with websockets.connect(
        f"ws://127.0.0.1:{site.port}{path}",
        origin="http://127.0.0.1",
        additional_headers={"Cookie": cookie},
        open_timeout=WAIT_SECONDS,
    ) as ws:
        try:
            while True:
                await asyncio.wait_for(ws.recv(), WAIT_SECONDS)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


async def _during_outage_sockets(
    site: Site, table_id: int, remotes: dict[int, Remote], cookie: str
) -> dict[str, Any]:
    """What the sockets see while the database is away: a move, and three new sockets."""
    mover = remotes[remotes[0].state["view"]["to_act"]]
    action = mover.state["view"]["legal"][0]
    await mover.ws.send(
        json.dumps({"type": "act", "version": mover.version, "id": "x1", "action": action})
    )
    while (frame := await mover.recv(timeout=WAIT_SECONDS)).get("id") != "x1":
        pass
    return {
        "move": frame,
        "new sockets": [
            await _closed_with(site, path, cookie)
            for path in (f"/ws/table/{table_id}/", "/ws/lobby/", "/ws/ping/")
        ],
    }


async def test_an_outage_answers_503_logs_one_line_a_process_and_the_site_resumes(
    alice, bob, tmp_path
):
    """Pass: while the database is away, pages answer 503 with the site's page (never 500) and
    static files 200; a move gets ``busy``; a new socket closes with 4011. Once it is back the
    pages answer 200 at once, and the open sockets answer ``ping`` with ``pong`` and play on (a
    socket's database thread whose connection broke answers ``busy`` once, and the client sends
    again, as the page does). No process logged a traceback; each logged the outage in at most
    one warning and one line when the database answered again, and nothing else about the
    database; the worker (its sweep runs every second) did both."""
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    cookies = [await sync_to_async(session_cookie)(player) for player in (alice, bob)]
    db = connection.settings_dict
    proxy = DatabaseProxy(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)).start()
    site = Site(tmp_path, proxy.port)
    remotes: dict[int, Remote] = {}
    try:
        await asyncio.to_thread(site.start)
        url = f"ws://127.0.0.1:{site.port}/ws/table/{table.pk}/"
        for cookie in cookies:
            remote = await Remote(cookie).connect(url)
            remotes[remote.state["seat"]] = remote
        rng = random.Random(25)
        assert await play_remotes(table.pk, remotes, rng, stop=lambda moves, _: moves >= 4) == 4
        pages = _pages(table.pk)
        assert set(await asyncio.to_thread(_statuses, site, pages, cookies[0])) == {200}

        proxy.cut()
        during, sockets = await asyncio.gather(
            asyncio.to_thread(
                _browse, site, [*pages, "/static/css/site.css"], cookies[0], OUTAGE_SECONDS
            ),
            _during_outage_sockets(site, table.pk, remotes, cookies[0]),
        )
        proxy.restore()

        after = await asyncio.to_thread(_statuses, site, pages * 3, cookies[1])
        for remote in remotes.values():
            await _answered(remote, {"type": "ping"}, {"pong"})
        mover = remotes[remotes[0].state["view"]["to_act"]]
        action = mover.state["view"]["legal"][0]
        move = {"type": "act", "version": mover.version, "id": "x2", "action": action}
        assert (await _answered(mover, move, {"ack"}))["version"] > move["version"]
    finally:
        for remote in remotes.values():
            await remote.close()
        await asyncio.to_thread(site.stop)
        proxy.stop()
        await sync_to_async(end_server_sessions)()

    assert {status for path, status in during if path.startswith("/static/")} == {200}
    assert {status for path, status in during if not path.startswith("/static/")} == {503}
    assert sockets["move"]["type"] == "error" and sockets["move"]["code"] == "busy"
    assert sockets["new sockets"] == [CLOSE_UNAVAILABLE] * 3
    assert set(after) == {200}, after

    logs = {name: site.log(name) for name in site.commands}
    for name, log in logs.items():
        assert "Traceback" not in log, f"{name}:\n{log}"
        about = [line for line in log.splitlines() if ABOUT_THE_DATABASE.search(line)]
        assert all(OUTAGE_LINE in line or BACK_LINE in line for line in about), (name, about)
        assert sum(OUTAGE_LINE in line for line in about) <= 1, (name, about)
        assert sum(BACK_LINE in line for line in about) <= 1, (name, about)
    assert OUTAGE_LINE in logs["worker"] and BACK_LINE in logs["worker"]
    assert any(OUTAGE_LINE in logs[name] for name in logs if name.startswith("web"))
