"""The ladder with a real Celery worker process (issue 14 acceptance), on PostgreSQL and Redis:

two registered players finish a rated match over the websocket of a real Daphne process; the
finished-match hook enqueues the rating task on Redis; a ``celery -A config worker`` process
rates the match and tells the table; within seconds the leaderboard and both profiles show the
new ratings and both table sockets got the ``rating`` message. Nothing runs eagerly here.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
import redis
from channels.db import database_sync_to_async as sync_to_async
from django.conf import settings
from django.db import connection

from games.models import Match
from ladder.models import Rating, RatingChange
from tests.support import failure_report
from tests.support.daphne import BIN, ROOT, Daphne, Remote, play_remotes, session_cookie
from tests.support.ladder import beats
from tests.support.live import start_table

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

LIVE_SETTINGS = "tests.ladder.live_settings"
APP_NAMES = ("daphne-under-test", "celery-under-test")
WAIT_SECONDS = 60  # a generous bound for a busy machine; the task usually takes well under one


class Worker:
    """``celery -A config worker`` on the test database and the test's own queue."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = {**env, "PGAPPNAME": "celery-under-test"}
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        command = [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
            "-Q",
            self.env["LADDER_TEST_QUEUE"],
            "-n",
            f"ladder-test-{self.env['LADDER_TEST_QUEUE']}@%h",
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        failure_report.watch_log(
            "celery worker",
            self.log,
            lambda: self.process is not None and self.process.poll() is None,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            if " ready." in self.log.read_text(errors="replace"):
                return self
            time.sleep(0.2)
        raise AssertionError(f"The worker did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@pytest.fixture
def live_site(tmp_path):
    """A Daphne process and a Celery worker sharing the test database and Redis."""
    queue = f"ladder-{uuid.uuid4().hex[:8]}"
    server = Daphne(tmp_path, prefix=queue, redis=True)
    server.env.update({"DJANGO_SETTINGS_MODULE": LIVE_SETTINGS, "LADDER_TEST_QUEUE": queue})
    worker = Worker(server.env, tmp_path / "worker.log")
    try:
        yield server.start(), worker.start()
    finally:
        server.kill()
        worker.stop()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name = ANY(%s)",
                [list(APP_NAMES)],
            )
        # The queue of this test only: leave nothing of it in Redis.
        broker = redis.Redis.from_url(settings.REDIS_URL)
        broker.delete(queue, f"_kombu.binding.{queue}")


def _page(server: Daphne, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10) as answer:
        return answer.read().decode()


async def _eventually(check, what: str) -> None:
    """Poll until ``check()`` is true (a page shows what the worker wrote)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not await sync_to_async(check)():
        assert time.monotonic() < deadline, f"never happened: {what}"
        await asyncio.sleep(0.2)


@pytest.mark.slow
async def test_a_real_worker_rates_a_match_finished_over_the_websocket(
    alice, bob, live_site, settings
):
    server, worker = live_site
    settings.COOLDOWN_QUITS = 1000  # the matches below end by leaving: no cool-down for that
    assert os.environ.get("REDIS_URL")
    # Nine rated matches each (rated here, in the test process): the tenth makes both players
    # non-provisional, so they are ranked with it (listed, unranked, before).
    for index in range(9):
        await sync_to_async(beats)(*((alice, bob) if index % 2 else (bob, alice)))
    assert await sync_to_async(Rating.objects.filter(matches=9).count)() == 2
    leaderboard = await sync_to_async(_page)(server, "/ladder/japanese_joker/")
    for name in ("alice", "bob"):  # provisional so far: listed without a rank
        row = re.search(rf'data-player="{name}">(.*?)</tr>', leaderboard, re.S).group(1)
        assert '<td class="num">—</td>' in row and 'class="badge provisional"' in row

    table = await sync_to_async(start_table)("japanese_joker", [alice, bob], options={"points": 11})
    remotes = {}
    for player in (alice, bob):
        remote = await Remote(await sync_to_async(session_cookie)(player)).connect(
            server.url(table.pk)
        )
        remotes[remote.state["seat"]] = remote
    await play_remotes(table.pk, remotes, random.Random(14))
    match = await sync_to_async(Match.objects.get)(table=table)
    assert match.status == Match.Status.FINISHED

    # Both table sockets get the rating message, from the worker, once the task has run.
    frames = {}
    for seat, remote in remotes.items():
        frame = next((f for f in remote.frames if f["type"] == "rating"), None)
        while frame is None:
            candidate = await remote.recv(timeout=WAIT_SECONDS)
            frame = candidate if candidate["type"] == "rating" else None
        frames[seat] = frame
    changes = {
        c.player.name: c
        for c in await sync_to_async(list)(
            RatingChange.objects.filter(match=match).select_related("player")
        )
    }
    assert sorted(changes) == ["alice", "bob"]
    for frame in frames.values():
        assert frame["match"] == match.pk
        assert {c["name"]: (c["before"], c["after"], c["delta"]) for c in frame["changes"]} == {
            name: (c.before, c.after, c.delta) for name, c in changes.items()
        }
        assert not any(c["provisional"] for c in frame["changes"])  # the tenth rated match
    assert re.search(r"Task ladder\.tasks\.rate_match\[[^\]]+\] succeeded", worker.log.read_text())

    # The pages show the new ratings.
    def board_shows_both() -> bool:
        page = _page(server, "/ladder/japanese_joker/")
        return all(
            re.search(  # ranked now: a rank, then the new rating
                rf'data-player="{name}">\s*<td class="num">\d+</td>.*?'
                rf'<td class="num">{c.after}</td>',
                page,
                re.S,
            )
            for name, c in changes.items()
        )

    await _eventually(board_shows_both, "the leaderboard lists both with their new ratings")
    for name, change in changes.items():
        profile = await sync_to_async(_page)(server, f"/players/{name}/")
        assert f'<span class="rating">{change.after}</span>' in profile
        assert f"{change.before} → {change.after}" in profile
        section = profile[profile.index('id="rating-japanese_joker"') :]
        assert section[: section.index("</section>")].count("<circle") == 10
    for remote in remotes.values():
        await remote.close()
