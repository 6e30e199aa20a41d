"""Browser tests: the real site served by Daphne, driven in Debian's Chromium by Playwright.

The server is a subprocess. With PostgreSQL (``DATABASE_URL``) it serves the pytest test
database, so tests are ``django_db(transaction=True)`` and see what the browsers did; with the
default SQLite (whose test database lives in this process's memory) it gets its own file
database, migrated once per session. Clocks are set far out so no automatic move or forfeit
happens while a test thinks, and Celery tasks run eagerly (``config.settings.test``).

Without /usr/bin/chromium these tests skip, unless ``REQUIRE_SERVICES=1`` (CI): then they fail.
"""

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
from django.conf import settings

from tests.support import failure_report

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CHROMIUM = Path("/usr/bin/chromium")
# Chromium's headless shell (Debian's chromium-headless-shell, what Playwright drives when it
# brings its own): the same Blink without the browser's own interface, about a quarter less CPU
# for the same tests (CONTRIBUTING § Browser tests). The browser tests use it when it is there;
# the PWA test keeps the whole browser (installing an app is the browser's part).
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
APP_NAME = "daphne-e2e"  # the server's PostgreSQL sessions, so teardown can end them


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "e2e: real browser (Chromium via Playwright) against a Daphne subprocess"
    )


def _postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A browser test that reads or writes the database from this process (``django_db``) needs
    the server to use the same database: PostgreSQL. On the embedded default the server has a
    file database of its own, so such a test skips there (fails under ``REQUIRE_SERVICES=1``)
    instead of failing on rows it cannot see; the others run on both."""
    for item in items:
        if "e2e" in item.path.parts and item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.postgres)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        reason = f"needs Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"{reason}, and REQUIRE_SERVICES=1 says it must be there", pytrace=False)
        pytest.skip(reason)
    return HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM


def _server_env(var_dir: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "VAR_DIR": str(var_dir),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "TURN_SECONDS": "3600",
            "ABSENCE_GRACE_SECONDS": "3600",
            # Browser tests leave matches on purpose, many times (the ladder's ten forfeits):
            # no cool-down for quitters here (tests/social tests them through the services).
            "COOLDOWN_QUITS": "1000",
            "CHANNELS_PREFIX": f"e2e{os.getpid()}",
        }
    )
    return env


class Server:
    """One Daphne process on a free port."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        command = [
            str(BIN / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(self.port),
            "config.asgi:application",
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        failure_report.watch_log(f"Daphne :{self.port}", self.log, self.running)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                with urllib.request.urlopen(f"{self.url}/", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"Daphne did not start:\n{self.log.read_text()}")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def e2e_server(request, tmp_path_factory, chromium_path) -> Iterator[Server]:
    """The site, served by Daphne for the whole session."""
    var_dir = tmp_path_factory.mktemp("e2e-var")
    env = _server_env(var_dir)
    blocker = None
    if _postgres():
        # The pytest test database, created by pytest-django; the tests commit (transaction=True).
        request.getfixturevalue("django_db_setup")
        blocker = request.getfixturevalue("django_db_blocker")
        db = settings.DATABASES["default"]
        auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        env["DATABASE_URL"] = (
            f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
        env["PGAPPNAME"] = APP_NAME
    else:
        # A file database of its own, migrated once.
        env.pop("DATABASE_URL", None)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=180,
        )
    server = Server(env, var_dir / "daphne.log").start()
    yield server
    server.stop()
    if blocker is not None:
        from django.db import connection

        with blocker.unblock(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name = %s",
                [APP_NAME],
            )


@pytest.fixture(scope="module")
def browser(chromium_path):
    """Chromium for one test module.

    Playwright's sync API keeps an event loop running in this thread, which Django would take
    for async code and refuse the database calls pytest-django makes between tests; allow them
    while the browser is up (this module only).
    """
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(
            executable_path=str(chromium_path), headless=True, args=LAUNCH_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def _server_settled(blocker, *, timeout: float = 15) -> None:
    """Wait until the server has handled the sockets that just closed (PostgreSQL only).

    Closing a page makes the server delete its connection row and recompute presence. The flush
    that ends a ``transaction=True`` test truncates every table; run while those writes are in
    flight, the two deadlock. So wait until the server's sessions stay idle for half a second.
    """
    from django.db import connection

    deadline = time.monotonic() + timeout
    quiet = 0
    time.sleep(0.2)  # the close frames reach the server
    with blocker.unblock():
        while time.monotonic() < deadline and quiet < 5:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND application_name = %s AND state <> 'idle'",
                    [APP_NAME],
                )
                busy = cursor.fetchone()[0]
            quiet = quiet + 1 if busy == 0 else 0
            time.sleep(0.1)
        connection.close()


@pytest.fixture
def people(browser, e2e_server, django_db_blocker):
    """``people(n)``: n guests, each in a browser context of their own, on the home page."""
    from .people import Person

    made: list[Person] = []

    def make(count: int) -> list[Person]:
        for index in range(count):
            person = Person(browser, e2e_server, f"p{index}")
            person.become_guest()
            made.append(person)
        return made

    yield make
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    for person in made:
        person.context.close()
    if _postgres():
        _server_settled(django_db_blocker)
    assert not errors, errors
