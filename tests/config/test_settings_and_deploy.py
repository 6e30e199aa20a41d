"""Settings come from the environment with an embedded default (issue 2, item 2)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
from config.celery import app
print(json.dumps({
    "db": settings.DATABASES["default"]["ENGINE"],
    "db_options": settings.DATABASES["default"].get("OPTIONS", {}),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "cache": settings.CACHES["default"]["BACKEND"],
    "broker": app.conf.broker_url,
    "beat": sorted(app.conf.beat_schedule),
}))
"""


def _run(code_or_args: list[str], **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_ENV"}
    }
    return subprocess.run(
        [sys.executable, *code_or_args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_no_environment_means_sqlite_everywhere_and_no_server(tmp_path):
    result = _run(
        ["-c", PRINT_SETTINGS],
        DJANGO_SETTINGS_MODULE="config.settings.local",
        VAR_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["db"] == "django.db.backends.sqlite3"
    assert seen["db_options"]["transaction_mode"] == "IMMEDIATE"
    # The worker and Daphne are separate processes, so the layer must cross between them.
    assert seen["layer"] == "channels_lite.layers.core.SQLiteChannelLayer"
    assert seen["broker"].startswith("sqla+sqlite:///")
    assert seen["beat"]  # beat has work to schedule


def test_database_and_redis_urls_switch_to_postgres_and_redis(tmp_path):
    result = _run(
        ["-c", PRINT_SETTINGS],
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/anything",
        REDIS_URL="redis://127.0.0.1:6379/3",
        VAR_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["db"] == "django.db.backends.postgresql"
    assert seen["layer"] == "core.layers.RedisLayer"  # channels-redis, one round trip a read
    assert seen["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert seen["broker"] == "redis://127.0.0.1:6379/3"


def test_production_mode_passes_check_deploy_with_a_real_key_and_hosts(tmp_path):
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="joker.example.org",
        VAR_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_mode_refuses_to_start_without_a_secret_key(tmp_path):
    result = _run(
        ["manage.py", "check"],
        DJANGO_ENV="production",
        ALLOWED_HOSTS="joker.example.org",
        VAR_DIR=str(tmp_path),
    )
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


BURST = """
import asyncio, json, django
django.setup()
from django.core.management import call_command
call_command("migrate_all", verbosity=0)
from channels.layers import get_channel_layer

async def main():
    layer = get_channel_layer()
    reader = await layer.new_channel()
    await layer.group_add("table-1", reader)
    for version in range(300):
        await layer.group_send("table-1", {"type": "frame", "version": version})
    got = []
    while len(got) < 300:
        try:
            got.append((await asyncio.wait_for(layer.receive(reader), 5))["version"])
        except asyncio.TimeoutError:
            break
    print(json.dumps(got))

asyncio.run(main())
"""


def test_the_embedded_layer_keeps_a_burst_of_frames_a_reader_has_not_read_yet(tmp_path):
    """A process's sockets share one inbox in channels-lite, and the library drops a send once
    100 of its messages wait unread: a run of quick moves (a computer's, a walk's) left a page
    on a stale version with nothing to tell it so. Every frame arrives, in order."""
    result = _run(
        ["-c", BURST], DJANGO_SETTINGS_MODULE="config.settings.local", VAR_DIR=str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == list(range(300))
