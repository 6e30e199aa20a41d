"""Issue 25, defects 1–3: Redis killed and restarted empty while a stake match is played across
two server processes, with a real Celery worker and beat, all on a Redis of the test's own.

What must hold: no socket is closed by the server; a move made during the outage stands and its
mover gets the ack; what could not be published then reaches the other process's socket once
Redis is back; pushes between the processes resume (the groups are back in Redis) with no
``sync`` or ``ping`` from the clients; a seat that then leaves on its turn forfeits on time; no
presence row is left; the coins audit clean; and the servers log no traceback.
"""

from __future__ import annotations

import asyncio
import io
import random
import time
from datetime import datetime

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.core.management import call_command

from games.models import Match, TableConnection
from scripts.serve import commands as serve_commands
from tests.reliability.conftest import end_server_sessions
from tests.support.daphne import Daphne, Remote, session_cookie
from tests.support.live import match_version, start_table
from tests.support.processes import CeleryProcess
from tests.support.redis_server import RedisServer

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

PUSH_SECONDS = 5.0  # a push between processes on a loaded 2-core machine; it is ~0.01 s idle
GRACE_SECONDS = 8  # each seat's absence bank here


@pytest.fixture
def outage_site(tmp_path):
    """Redis of the test's own, two Daphnes, a Celery worker and beat, all on it."""
    redis_server = RedisServer(tmp_path / "redis").start()
    env = {
        "REDIS_URL": redis_server.url,
        "DJANGO_SETTINGS_MODULE": "tests.ladder.live_settings",  # tasks go to the broker
        "ABSENCE_GRACE_SECONDS": str(GRACE_SECONDS),
        "TURN_SECONDS": "600",
        "LIVE_HEARTBEAT_SECONDS": "2",
        "LIVE_SWEEP_SECONDS": "1",
    }
    servers = []
    for _ in range(2):
        server = Daphne(tmp_path, prefix="outage", redis=True)
        server.env.update(env)
        servers.append(server.start())
    celery = [
        CeleryProcess(servers[0].env, tmp_path, "worker", *serve_commands(0)["worker"][4:]).start(),
        CeleryProcess(servers[0].env, tmp_path, "beat").start(),
    ]
    try:
        yield redis_server, servers, celery
    finally:
        for process in celery:
            process.stop()
        for server in servers:
            server.kill()
        redis_server.kill()
        end_server_sessions(("daphne-under-test", "celery-under-test"))


async def _move(actor: Remote, watchers: list[Remote]) -> int:
    """One legal move; every other socket must have it pushed, with no sync or ping."""
    answer = await actor.act(random.Random(actor.version).choice(actor.state["view"]["legal"]))
    assert answer["type"] == "ack", answer
    await actor.until_version(answer["version"])  # its own state follows the ack
    for watcher in watchers:
        await watcher.until_version(answer["version"], timeout=PUSH_SECONDS)
    return answer["version"]


def _seat_to_act(remotes: dict[int, Remote]) -> Remote:
    state = remotes[0].state
    assert state["status"] == "playing", state
    return remotes[state["view"]["to_act"]]


def _others(remotes: dict[int, Remote], actor: Remote) -> list[Remote]:
    return [remote for remote in remotes.values() if remote is not actor]


async def test_a_redis_restart_mid_match_closes_no_socket_and_pushes_resume(
    alice, bob, outage_site
):
    redis_server, servers, celery = outage_site
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob], stake=25)
    remotes: dict[int, Remote] = {}
    for player, server in ((alice, servers[0]), (bob, servers[1])):
        remote = await Remote(await sync_to_async(session_cookie)(player)).connect(
            server.url(table.pk)
        )
        remotes[remote.state["seat"]] = remote
    version = await match_version(table.pk)
    for remote in remotes.values():
        await remote.until_version(version)
    for _ in range(3):
        actor = _seat_to_act(remotes)
        await _move(actor, _others(remotes, actor))

    # Redis dies: a move still stands, and its mover hears the ack.
    redis_server.kill()
    actor = _seat_to_act(remotes)
    answer = await actor.act(actor.state["view"]["legal"][0])
    assert answer["type"] == "ack", answer
    await actor.until_version(answer["version"])  # from its own process: no Redis needed
    await asyncio.sleep(3)
    redis_server.start()  # empty: no groups, no inboxes

    # What could not be published reaches the other process's socket once Redis is back.
    for other in _others(remotes, actor):
        await other.until_version(answer["version"], timeout=15)
    # Pushes both ways resume, from both processes, with no sync from the clients.
    for _ in range(8):
        actor = _seat_to_act(remotes)
        await _move(actor, _others(remotes, actor))

    # A seat that leaves on its turn forfeits when its bank runs out, pushed by the worker.
    leaver = _seat_to_act(remotes)
    stayer = _others(remotes, leaver)[0]
    leaver_seat = leaver.state["seat"]
    seen = len(stayer.frames)
    await leaver.close()
    left_at = time.monotonic()
    presence = await _frame(stayer, seen, lambda f: _deadline(f, leaver_seat) is not None)
    deadline = _deadline(presence, leaver_seat)
    bank = (deadline - datetime.fromisoformat(presence["clocks"]["server_time"])).total_seconds()
    assert 0 < bank <= GRACE_SECONDS
    over = await _frame(
        stayer, seen, lambda f: f["type"] == "match_over", timeout=GRACE_SECONDS + 20
    )
    assert over["result"]["reason"] == "forfeit" and over["result"]["forfeited"] == [leaver_seat]
    assert time.monotonic() - left_at <= bank + 6  # the sweep runs every second

    await stayer.close()
    match = await sync_to_async(Match.objects.get)(table=table)
    assert match.status == Match.Status.FINISHED

    async def rows() -> int:
        return await sync_to_async(TableConnection.objects.filter(table=table).count)()

    deadline_rows = time.monotonic() + 10
    while await rows() and time.monotonic() < deadline_rows:
        await asyncio.sleep(0.2)
    assert await rows() == 0, "a presence row outlived its socket"

    audit = io.StringIO()
    await sync_to_async(call_command)("audit_coins", stdout=audit)
    assert "Ledger OK" in audit.getvalue()
    for server in servers:
        log = server.log.read_text(errors="replace")
        assert "Traceback" not in log and "Exception inside application" not in log, log[-4000:]
        assert log.count("Redis unavailable") == 1 and "Redis answers again" in log, log[-4000:]
    for process in celery:  # beat could not send its sweeps meanwhile: one line, no traceback
        log = process.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]
        assert log.count("Redis unavailable") <= 1, log[-4000:]


def _deadline(frame: dict, seat: int) -> datetime | None:
    if frame["type"] not in ("presence", "state"):
        return None
    stamp = frame["seats"][seat]["absence_deadline"]
    return datetime.fromisoformat(stamp) if stamp else None


async def _frame(remote: Remote, seen: int, wanted, timeout: float = 15) -> dict:
    """The first frame past the ``seen`` first ones that is ``wanted``, waiting for it."""
    for frame in remote.frames[seen:]:
        if wanted(frame):
            return frame
    end = time.monotonic() + timeout
    while True:
        frame = await remote.recv(timeout=max(0.1, end - time.monotonic()))
        if wanted(frame):
            return frame
