"""Shared pieces of the hardening tests (issue 10): sockets with a session, many open tables,
and a real Daphne started the way ``scripts/serve.py`` starts it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client

from accounts.models import Player
from config.asgi import application
from games.models import Seat, Table
from tests.support import failure_report

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def session_cookie(player: Player | None) -> list[tuple[bytes, bytes]]:
    """Handshake headers of a browser logged in as ``player`` (a visitor when None)."""
    if player is None:
        return list(ORIGIN)
    client = Client()
    client.force_login(player.user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [*ORIGIN, (b"cookie", cookie.encode())]


async def open_socket(path: str, headers: list[tuple[bytes, bytes]] | None = None):
    communicator = WebsocketCommunicator(application, path, headers=headers or ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def many_open_tables(count: int, *, game: str = "japanese_joker", prefix: str = "host") -> list:
    """``count`` open public tables, each with its creator seated, written in bulk."""
    players = Player.objects.bulk_create(
        [Player(name=f"{prefix}{index:04d}") for index in range(count)]
    )
    tables = Table.objects.bulk_create(
        [Table(game=game, creator=player, seats_total=2, options={}) for player in players]
    )
    Seat.objects.bulk_create(
        [Seat(table=table, player=table.creator, position=0) for table in tables]
    )
    return tables


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a server process that serves this test run's PostgreSQL database."""
    db = connection.settings_dict
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": (
                f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                f"/{db['NAME']}"
            ),
            "VAR_DIR": str(tmp_path / "var"),
            "PGAPPNAME": "reliability-under-test",
            **extra,
        }
    )
    return env


def end_server_sessions(names: tuple[str, ...] = ("reliability-under-test",)) -> None:
    """Close the database sessions a killed server left (by their ``PGAPPNAME``), so the test
    database can be flushed."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = ANY(%s)",
            [list(names)],
        )


class Daphne:
    """One Daphne process with exactly the options ``scripts/serve.py`` gives it."""

    def __init__(self, tmp_path: Path) -> None:
        sys.path.insert(0, str(ROOT / "scripts"))
        try:
            import serve
        finally:
            sys.path.remove(str(ROOT / "scripts"))
        self.listener = serve.listening_socket("127.0.0.1", 0)
        self.port = self.listener.getsockname()[1]
        self.log = tmp_path / f"daphne-{self.port}.log"
        self.command = serve.commands(self.listener.fileno())["web"]
        self.env = server_env(tmp_path)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Daphne:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(self.listener.fileno(),),
            )
        failure_report.watch_log(
            f"Daphne :{self.port}",
            self.log,
            lambda: self.process is not None and self.process.poll() is None,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2):
                    return self
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"Daphne did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        end_server_sessions()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def daphne(tmp_path) -> Iterator[Daphne]:
    """A real Daphne on the test database (PostgreSQL: the server is another process)."""
    server = Daphne(tmp_path).start()
    yield server
    server.stop()


# The browser tests' server and Chromium (tests/e2e), for the policy check in a real browser.
from tests.e2e.conftest import browser, chromium_path, e2e_server  # noqa: E402, F401
