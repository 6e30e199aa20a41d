"""Item 3: Celery beat runs from a fresh checkout on PostgreSQL + Redis, and a dead beat is
started again by ``scripts/serve.py``, with a message, instead of leaving a site with no sweeps
(issue 25: it used to stop everything).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import LiveServer, TableConnection

from .conftest import ROOT, end_server_sessions, free_port, many_open_tables

PRINT_BEAT_FOLDER = """
import json, os, django
from django.conf import settings
django.setup()
folder = os.path.dirname(settings.CELERY_BEAT_SCHEDULE_FILENAME)
print(json.dumps({"folder": folder, "exists": os.path.isdir(folder)}))
"""


def _fresh_clone_env(var_dir) -> dict[str, str]:
    """A fresh checkout's environment: no settings module chosen, nothing under VAR_DIR."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DJANGO_SETTINGS_MODULE",
            "DJANGO_ENV",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
            "MALLOC_ARENA_MAX",
        }
    }
    env["VAR_DIR"] = str(var_dir)
    return env


def test_settings_on_postgres_and_redis_make_the_folder_beat_writes_to(tmp_path):
    """Pass: loading the settings with DATABASE_URL and REDIS_URL and an empty VAR_DIR leaves
    the folder of CELERY_BEAT_SCHEDULE_FILENAME in place."""
    env = {
        **_fresh_clone_env(tmp_path / "var"),
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/anything",
        "REDIS_URL": "redis://127.0.0.1:6379/4",
    }
    result = subprocess.run(
        [sys.executable, "-c", PRINT_BEAT_FOLDER],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["exists"] and seen["folder"].startswith(str(tmp_path)), seen


def _collect(stream, lines: list[str]) -> None:
    for line in stream:
        lines.append(line)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_serve_on_postgres_and_redis_from_a_fresh_checkout_sweeps_and_restarts_a_dead_beat(
    tmp_path,
):
    """Pass: ``scripts/serve.py`` on the test database and Redis, with nothing under VAR_DIR,
    starts one web process per core on one port, all answering, with two malloc arenas each
    (``MALLOC_ARENA_MAX``), runs the live sweep (a dead
    server's presence rows are removed); when its beat process is killed, serve.py says so and
    starts a new beat; SIGTERM then stops everything cleanly."""
    stale = LiveServer.objects.create(
        name="a-server-killed-ten-minutes-ago", last_seen_at=timezone.now() - timedelta(minutes=10)
    )
    TableConnection.objects.create(
        channel_name="specific.dead!1", server=stale, table=many_open_tables(1)[0]
    )
    db = settings.DATABASES["default"]
    env = {
        **_fresh_clone_env(tmp_path / "var"),
        "DATABASE_URL": (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        ),
        "LIVE_SWEEP_SECONDS": "1",
        "PGAPPNAME": "reliability-under-test",
    }
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "scripts/serve.py", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=_collect, args=(server.stdout, lines), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and LiveServer.objects.filter(pk=stale.pk).exists():
            assert server.poll() is None, "".join(lines)
            time.sleep(0.5)
        output = "".join(lines)
        assert not LiveServer.objects.filter(pk=stale.pk).exists(), output
        assert not TableConnection.objects.filter(server_id=stale.pk).exists()
        assert "FileNotFoundError" not in output
        webs = [line for line in lines if line.startswith("web")]
        assert len(webs) == (os.cpu_count() or 1), output  # one Daphne per core, one port
        for _ in range(6):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                assert page.status == 200
        for line in webs:
            os.kill(int(line.split()[2]), 0)  # every web process is still alive
            environ = Path(f"/proc/{line.split()[2]}/environ").read_bytes().split(b"\0")
            assert b"MALLOC_ARENA_MAX=2" in environ  # two malloc arenas, not one per thread

        beat = next(line for line in lines if line.startswith("beat: pid "))
        pid = int(beat.split()[2])
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if sum(line.startswith("beat: pid ") for line in lines) == 2:
                break
            assert server.poll() is None, "".join(lines)
            time.sleep(0.2)
        output = "".join(lines)
        assert f"beat exited (pid {pid}, killed by SIGKILL); restarting it in 1 s." in output
        assert sum(line.startswith("beat: pid ") for line in lines) == 2, output
        server.terminate()
        server.wait(timeout=60)
        reader.join(timeout=10)
        output = "".join(lines)
        assert server.returncode == 0 and "Stopped." in output, output
    finally:
        if server.poll() is None:  # a failed check: serve.py stops its own processes on SIGTERM
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
        end_server_sessions()
