"""The load bench's environment, database and server: the settings every process it starts
runs with, the bench's database, and ``scripts/serve.py`` with the processes it starts."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/joker_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/2"
SERVER_APP_NAME = "joker-bench-server"  # PostgreSQL application_name of the server processes


IDLE_TURN_SECONDS = 2.0  # bench/load/idle.py
IDLE_BANK_SECONDS = 3.0


def configure_environment(var_dir: str) -> None:
    """The environment of this process and of every server process it starts."""
    defaults = {
        "DATABASE_URL": DEFAULT_DATABASE_URL,
        "REDIS_URL": DEFAULT_REDIS_URL,
        "CHANNELS_PREFIX": "bench",
        "CACHE_PREFIX": "bench",
    }
    for key, value in defaults.items():
        if not os.environ.get(key):
            os.environ[key] = value
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.bench",
            "DJANGO_ENV": "production",
            "SECRET_KEY": os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "VAR_DIR": var_dir,
            # The idle phase's tables, and only they, are Relaxed: their clocks run out within it.
            "RELAXED_TURN_SECONDS": str(IDLE_TURN_SECONDS),
            "RELAXED_BANK_SECONDS": str(IDLE_BANK_SECONDS),
            # The clients move as fast as the server answers, far above a person's pace.
            "LIVE_RATE_PER_SECOND": "100000",
            "LIVE_RATE_BURST": "100000",
            "PGAPPNAME": SERVER_APP_NAME,
        }
    )
    os.environ.pop("DEBUG", None)


def ensure_database(url: str) -> None:
    """Create the bench's database if it does not exist yet."""
    import psycopg
    from psycopg import sql

    parsed = psycopg.conninfo.conninfo_to_dict(url)
    name = str(parsed.get("dbname") or "")
    try:
        psycopg.connect(url, connect_timeout=5).close()
        return
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            raise
    admin = psycopg.conninfo.make_conninfo(url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``scripts/serve.py`` and the processes it starts, stopped whatever happens."""

    def __init__(
        self, port: int, log_path: Path, web_processes: int | None, *, web_only: bool = False
    ) -> None:
        self.port = port
        self.log_path = log_path
        self.web_processes = web_processes
        self.web_only = web_only  # a second node: Daphne only, the first node's worker and beat
        self.process: subprocess.Popen[bytes] | None = None
        self.pids: dict[str, int] = {}

    def start(self, timeout: float = 60) -> None:
        command = [sys.executable, str(ROOT / "scripts" / "serve.py"), "--port", str(self.port)]
        if self.web_processes:
            command += ["--web-processes", str(self.web_processes)]
        if self.web_only:
            command.append("--web-only")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=dict(os.environ),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve.py exited at start:\n{self.log()}")
            printed = self.log()
            found = re.findall(r"^([\w-]+): pid (\d+)$", printed, re.M)
            self.pids = {name: int(pid) for name, pid in found}
            if "Serving on " in printed:  # printed once every process has started
                with contextlib.suppress(OSError):
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                    return
            time.sleep(0.2)
        raise RuntimeError(f"the server did not start in {timeout:.0f} s:\n{self.log()}")

    @property
    def web_pids(self) -> list[int]:
        return [pid for name, pid in self.pids.items() if name.startswith("web")]

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def exits(self) -> list[str]:
        """The lines in which serve.py said one of its processes exited (and restarted it): a
        bench run in which a process died measured a different server."""
        return re.findall(r"^[\w-]+ exited \(pid .*$", self.log(), re.M)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def stop(self) -> int | None:
        """SIGTERM to serve.py (which stops its children); SIGKILL to whatever is left."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        for pid in self.pids.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)  # only if serve.py could not stop it
        return self.process.returncode
