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
import random
import uuid

import pytest
import websockets
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from django.conf import settings
from django.db import connection

from games.models import Match, MatchEvent
from scripts.serve import DAPHNE_MAX_MESSAGE_BYTES
from tests.support.daphne import Daphne, Remote, play_remotes, session_cookie
from tests.support.live import start_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


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


@pytest.mark.slow
async def test_a_server_killed_mid_hand_restarts_and_both_players_finish_the_same_match(
    alice, bob, servers
):
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob], options={"points": 11})
    cookies = [await sync_to_async(session_cookie)(p) for p in (alice, bob)]
    server = servers(prefix=f"restart-{uuid.uuid4().hex[:8]}", redis=False)
    await sync_to_async(server.start)()
    remotes = {}
    for cookie in cookies:
        remote = await Remote(cookie).connect(server.url(table.pk))
        remotes[remote.state["seat"]] = remote
    rng = random.Random(11)

    def mid_hand(moves, state):
        return moves >= 12 and state["view"]["phase"] == "play" and state["view"]["trick"]

    moves = await play_remotes(table.pk, remotes, rng, stop=mid_hand)
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
    moves += await play_remotes(table.pk, remotes, rng)

    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    assert match.status == Match.Status.FINISHED
    events = await sync_to_async(MatchEvent.objects.filter(match=match).count)()
    assert events == moves == match.version

    # The frame limits: over the consumer's 4 KiB an error then 4009 (also far over it: the
    # inbound limit is the consumer's, not Daphne's); over Daphne's 1 MiB (serve.py's), Daphne
    # itself drops the connection (no close frame: 1006) before the application sees it.
    for remote, size, answered, code in (
        (remotes[0], 50_000, True, 4009),
        (remotes[1], DAPHNE_MAX_MESSAGE_BYTES + 1000, False, None),
    ):
        await remote.ws.send(json.dumps({"type": "sync", "pad": "x" * size}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:  # frames still on their way (match_over, …), then the answer and the close
                frame = await remote.recv()
                if frame["type"] == "error":
                    assert answered and frame["code"] == "too_big"
        received = closed.value.rcvd
        assert (received.code if received else None) == code, (size, closed.value)


async def _follow_to_the_end(remote: Remote) -> None:
    while not (remote.state and remote.state["status"] == "finished"):
        await remote.recv(timeout=60)


@pytest.mark.slow
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
        remote = await Remote(await sync_to_async(session_cookie)(player)).connect(
            server.url(table.pk)
        )
        remotes[remote.state["seat"]] = remote
    watcher = await Remote(await sync_to_async(session_cookie)(eve)).connect(first.url(table.pk))
    # The watcher reads as the match goes, as a page does: a socket that stops reading stops
    # answering the server's pings and is dropped (docs/protocol.md § Close codes).
    watching = asyncio.ensure_future(_follow_to_the_end(watcher))
    moves = await play_remotes(table.pk, remotes, random.Random(12))
    await watching
    await watcher.until_version(moves)
    assert watcher.state["status"] == "finished" and "hand" not in watcher.state["view"]
    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    assert match.status == Match.Status.FINISHED and match.version == moves
    for remote in (*remotes.values(), watcher):
        await remote.close()
