"""The whole site as ``make run`` serves it on PostgreSQL and Redis: ``scripts/serve.py`` with its
Daphnes on one port, a Celery worker and Celery beat, serving the test database, with a channel
prefix and a Celery queue of its own (so the beat's sweeps and the tasks reach this site's
worker and no other test's)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

from tests.support import failure_report
from tests.support.daphne import ROOT, free_port

APP_NAME = "site-under-test"  # PGAPPNAME of its processes, so teardown can end their sessions


def log_problems(log: str) -> list[str]:
    """The lines of a server log that say something broke: a traceback, or a line logged at
    ERROR or CRITICAL (the load bench reads its server's log the same way)."""
    return [
        line
        for line in log.splitlines()
        if "Traceback" in line or re.search(r"\b(ERROR|CRITICAL)\b", line)
    ]


class ServedSite:
    """``scripts/serve.py --web-processes N`` on the test database, with a settings module
    whose Celery tasks go to the broker (``tests.ladder.live_settings``): the beat's sweeps
    (live play, quick play's pairing) run in the real worker, as in production."""

    def __init__(self, tmp_path: Path, *, web_processes: int = 2, **environment: str) -> None:
        from django.db import connection

        self.port = free_port()
        self.log_path = tmp_path / "serve.log"  # what every process printed, written at stop
        self.web_processes = web_processes
        self.queue = f"site-{uuid.uuid4().hex[:8]}"
        db = connection.settings_dict
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        }
        self.env.update(
            {
                "DJANGO_SETTINGS_MODULE": "tests.ladder.live_settings",
                "DATABASE_URL": (
                    f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                    f"/{db['NAME']}"
                ),
                "VAR_DIR": str(tmp_path / "var"),
                "PGAPPNAME": APP_NAME,
                "LADDER_TEST_QUEUE": self.queue,
                "CHANNELS_PREFIX": self.queue,
                **environment,
            }
        )
        self.lines: list[str] = []
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 180) -> ServedSite:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "scripts/serve.py",
                "--web-processes",
                str(self.web_processes),
                "--port",
                str(self.port),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._collect, daemon=True).start()
        failure_report.watch_log(
            f"serve.py :{self.port}",
            self.output,
            lambda: self.process is not None and self.process.poll() is None,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            output = self.output()
            ready = (
                re.search(r"celery@\S+ ready\.", output)
                and "beat: Starting..." in output
                and len(self.web_pids()) == self.web_processes
            )
            if ready and self._page_status() == 200:
                return self
            time.sleep(0.5)
        raise AssertionError(f"serve.py did not come up:\n{self.output()}")

    def _collect(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def _page_status(self) -> int | None:
        try:
            with urllib.request.urlopen(f"{self.url}/", timeout=15) as page:
                return page.status
        except OSError:
            return None

    def pids(self) -> dict[str, int]:
        """The newest pid of each process, from serve.py's ``name: pid N`` lines."""
        found = re.findall(r"^([\w-]+): pid (\d+)$", self.output(), re.M)
        return {name: int(pid) for name, pid in found}

    def web_pids(self) -> dict[str, int]:
        return {name: pid for name, pid in self.pids().items() if name.startswith("web")}

    def output(self) -> str:
        return "".join(self.lines)

    def problems(self) -> list[str]:
        return log_problems(self.output())

    def exits(self) -> list[str]:
        """serve.py's lines saying one of its processes exited (and was started again)."""
        return re.findall(r"^[\w-]+ exited \(pid .*$", self.output(), re.M)

    def stop(self) -> None:
        """SIGTERM to serve.py (it stops its processes), SIGKILL to whatever is left of them;
        then the database sessions they left, and this site's Celery queue in Redis."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log_path.write_text(self.output())
        every_pid = {int(pid) for pid in re.findall(r"^[\w-]+: pid (\d+)$", self.output(), re.M)}
        for pid in every_pid:  # each leads a process group of its own
            if _is_ours(pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        end_sessions()
        import redis
        from django.conf import settings

        if settings.REDIS_URL:
            broker = redis.Redis.from_url(settings.REDIS_URL)
            broker.delete(self.queue, f"_kombu.binding.{self.queue}")


def _is_ours(pid: int) -> bool:
    """Still one of serve.py's processes (a pid may have been given to another since)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"daphne" in command or b"celery" in command


def end_sessions() -> None:
    """Close the database sessions the site's processes left, so the test database can be
    flushed."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [APP_NAME],
        )
