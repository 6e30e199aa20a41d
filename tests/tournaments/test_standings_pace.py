"""Issue 40 § 5 (1): a tournament's standings come at most one frame every
``TOURNAMENT_STANDINGS_SECONDS``, as docs/protocol.md § The tournament socket promises, however
the changes come: a burst of entries, pauses and leaves from several threads and a second
process, with the beat's tick and the held task asking too. What the pause held back is said
when it ends. Measured where a client sees it (the sockets) and where the processes publish (a
listener on the real Redis channel layer, the cache they share being Redis too)."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connection, connections
from django.utils import timezone

from config.asgi import application
from core import realtime as core_realtime
from tests.support.live import cookie_headers
from tests.support.players import make_player
from tournaments import realtime
from tournaments.models import Tournament
from tournaments.services.entries import tournament_join, tournament_leave, tournament_pause

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.redis,
    pytest.mark.usefixtures("fast_clients"),
]

ROOT = Path(__file__).resolve().parents[2]
PAUSE = 0.5
# The measuring loop shares the GIL with the burst's threads (which switch every 5 ms): what
# it stamps may be that late, never early.
SLACK = 0.02
BURST_SECONDS = 2.0


@pytest.fixture
def paced(settings) -> float:
    settings.TOURNAMENT_STANDINGS_SECONDS = PAUSE
    return PAUSE


def _arena() -> Tournament:
    return Tournament.objects.create(
        name="Busy arena",
        game="japanese_joker",
        starts_at=timezone.now() + timedelta(hours=1),
        duration_minutes=30,
        rated=False,
        options={"points": 11},
    )


def _players(prefix: str, count: int) -> list:
    return [make_player(f"{prefix}{index}") for index in range(count)]


def _churn(tournament_id: int, players: list, until: float) -> None:
    """One thread's changes, each published as the site publishes it (after its commit): its
    players in, paused, back and out, over and over; all in at the end."""
    try:
        while time.monotonic() < until:
            for player in players:
                tournament_join(player=player, tournament_id=tournament_id)
                tournament_pause(player=player, tournament_id=tournament_id, paused=True)
                tournament_pause(player=player, tournament_id=tournament_id, paused=False)
            tournament_leave(player=players[0], tournament_id=tournament_id)
        for player in players:
            tournament_join(player=player, tournament_id=tournament_id)
    finally:
        connections.close_all()


def _asking(tournament_id: int, until: float) -> None:
    """The beat's tick asking over and over (the held tasks come with the changes)."""
    try:
        while time.monotonic() < until:
            realtime.standings_say(tournament_id)
            time.sleep(0.03)
    finally:
        connections.close_all()


def _final_version(tournament_id: int) -> str:
    try:
        return realtime.standings_frame(Tournament.objects.get(pk=tournament_id))["version"]
    finally:
        connections.close_all()


def _gaps(stamps: list[float]) -> list[float]:
    return [round(later - earlier, 3) for earlier, later in itertools.pairwise(stamps)]


async def _burst(tournament_id: int, groups: list[list], seconds: float) -> None:
    until = time.monotonic() + seconds
    loop = asyncio.get_running_loop()  # threads of their own, as a worker's (no context copied)
    await asyncio.gather(
        *(loop.run_in_executor(None, _churn, tournament_id, players, until) for players in groups),
        loop.run_in_executor(None, _asking, tournament_id, until),
    )


async def _until_version(
    frames: list[tuple[float, dict[str, Any]]], version: str, deadline: float = 20
) -> None:
    """Wait for the frame of the final standings (the pause's held-back), then a quiet while
    in which no other frame may come. The deadline is only how long a loaded machine may take
    (CI's suite beside browsers); the pace is measured by the gaps."""
    end = time.monotonic() + deadline
    while not any(frame["version"] == version for _, frame in frames):
        assert time.monotonic() < end, (
            f"no frame of the final standings {version} within {deadline} s; the last ones: "
            f"{[frame['version'] for _, frame in frames[-3:]]}"
        )
        await asyncio.sleep(0.02)
    await asyncio.sleep(3 * PAUSE)


# --- On the sockets ---------------------------------------------------------------------------


async def _open(tournament_id: int, player) -> WebsocketCommunicator:
    headers = await sync_to_async(cookie_headers)(player)
    communicator = WebsocketCommunicator(
        application, f"/ws/tournament/{tournament_id}/", headers=headers
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def _listen(
    communicator: WebsocketCommunicator, frames: list[tuple[float, dict[str, Any]]]
) -> None:
    loop = asyncio.get_running_loop()
    while True:
        frame = await communicator.receive_json_from(timeout=60)
        frames.append((loop.time(), frame))


async def test_a_burst_of_changes_reaches_each_socket_a_pause_apart(paced, alice):
    tournament = await sync_to_async(_arena)()
    groups = [await sync_to_async(_players)(f"burst{index}-", 3) for index in range(3)]
    loop = asyncio.get_running_loop()
    sockets, heard = [], []
    for player in (alice, groups[0][0]):
        sockets.append(await _open(tournament.pk, player))
        heard.append([(loop.time(), await sockets[-1].receive_json_from(timeout=10))])
    listeners = [
        asyncio.create_task(_listen(socket, frames))
        for socket, frames in zip(sockets, heard, strict=True)
    ]
    await _burst(tournament.pk, groups, BURST_SECONDS)
    final = await asyncio.get_running_loop().run_in_executor(None, _final_version, tournament.pk)
    await _until_version(heard[0], final)
    await _until_version(heard[1], final)
    for listener in listeners:
        listener.cancel()
    for socket in sockets:
        await socket.disconnect()

    for frames in heard:
        assert all(frame["type"] == "standings" for _, frame in frames)
        assert len(frames) >= 3, "the burst is heard while it lasts, not only at its end"
        gaps = _gaps([stamp for stamp, _ in frames])
        assert min(gaps) >= PAUSE - SLACK, gaps
        # The last frame is the standings as they ended: what the last pause held back.
        assert frames[-1][1]["version"] == final
        assert frames[-1][1]["players"] == 9


# --- Where the processes publish ---------------------------------------------------------------

SECOND_PROCESS = """
import sys, threading, time
import django
django.setup()
from django.db import connections
from accounts.models import Player
from tournaments import realtime
from tournaments.services.entries import tournament_pause

timers = []

def worker(task_name, *args, countdown=0):  # a worker that waits out the countdown
    def run():
        realtime.standings_held(*args)
        connections.close_all()
    timers.append(threading.Timer(countdown, run))
    timers[-1].start()

realtime.enqueue_on_commit = worker
tournament_id, names = int(sys.argv[1]), sys.argv[2].split(",")
players = list(Player.objects.filter(name__in=names))
print("ready", flush=True)
sys.stdin.readline()
until = time.monotonic() + float(sys.argv[3])
while time.monotonic() < until:
    for player in players:
        tournament_pause(player=player, tournament_id=tournament_id, paused=True)
        tournament_pause(player=player, tournament_id=tournament_id, paused=False)
while timers:  # a worker stays up for the tasks it holds (one run at shutdown could not
    timers.pop(0).join()  # send: the interpreter refuses new threads by then)
connections.close_all()
"""


@pytest.fixture
def worker_timers(monkeypatch) -> Iterator[list[threading.Timer]]:
    """Held tasks run as a worker runs them: after their countdown, on another thread (the
    suite's Celery runs them at once, in the caller)."""
    timers: list[threading.Timer] = []

    def later(task_name: str, *args: Any, countdown: float = 0) -> None:
        assert task_name == "tournaments.tasks.standings_held"

        def run() -> None:
            try:
                realtime.standings_held(*args)
            finally:
                connections.close_all()

        timer = threading.Timer(countdown, run)
        timers.append(timer)
        timer.start()

    monkeypatch.setattr(realtime, "enqueue_on_commit", later)
    yield timers
    for timer in list(timers):
        timer.join(timeout=10)


def _second_process(tournament_id: int, names: list[str]) -> subprocess.Popen[str]:
    db = connection.settings_dict
    env = {
        **{key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        ),
        "TOURNAMENT_STANDINGS_SECONDS": str(PAUSE),
    }
    command = [
        sys.executable,
        "-c",
        SECOND_PROCESS,
        str(tournament_id),
        ",".join(names),
        str(BURST_SECONDS),
    ]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def _joined(tournament_id: int, players: list) -> None:
    for player in players:
        tournament_join(player=player, tournament_id=tournament_id)


async def test_the_frames_published_from_threads_and_processes_are_a_pause_apart(
    paced, worker_timers
):
    tournament = await sync_to_async(_arena)()
    groups = [await sync_to_async(_players)(f"many{index}-", 3) for index in range(2)]
    theirs = await sync_to_async(_players)("other-", 3)
    await sync_to_async(_joined)(tournament.pk, theirs)
    other = _second_process(tournament.pk, [player.name for player in theirs])
    try:
        assert (await asyncio.to_thread(other.stdout.readline)).strip() == "ready"
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(realtime.tournament_group(tournament.pk), channel)
        loop = asyncio.get_running_loop()
        published: list[tuple[float, dict[str, Any]]] = []

        async def listen() -> None:
            while True:
                message = await layer.receive(channel)
                published.append((loop.time(), message["frame"]))

        listener = asyncio.create_task(listen())
        other.stdin.write("go\n")
        other.stdin.flush()
        await _burst(tournament.pk, groups, BURST_SECONDS)
        assert await asyncio.to_thread(other.wait, 30) == 0
        final = await asyncio.get_running_loop().run_in_executor(
            None, _final_version, tournament.pk
        )
        await _until_version(published, final)
        listener.cancel()
        await layer.group_discard(realtime.tournament_group(tournament.pk), channel)
    finally:
        if other.poll() is None:
            other.kill()
            other.wait(timeout=10)

    assert len(published) >= 3
    gaps = _gaps([stamp for stamp, _ in published])
    assert min(gaps) >= PAUSE - SLACK, gaps
    assert published[-1][1]["version"] == final
    assert published[-1][1]["players"] == 9


def test_equal_standings_have_one_version_in_every_process(alice, bob):
    """The version is how a client drops a frame it has (and how the processes tell whether a
    change was said already): the same standings must give the same one wherever built."""
    tournament = _arena()
    _joined(tournament.pk, [alice, bob])
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        ),
    }
    script = (
        "import django, sys; django.setup()\n"
        "from tournaments.realtime import standings_frame\n"
        "from tournaments.models import Tournament\n"
        "print(standings_frame(Tournament.objects.get(pk=int(sys.argv[1])))['version'])\n"
    )
    theirs = subprocess.run(
        [sys.executable, "-c", script, str(tournament.pk)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.strip()
    assert theirs == _final_version(tournament.pk)


def test_a_frame_whose_send_failed_is_said_again(alice, bob, monkeypatch):
    """CI, 7 December: a held task that ran as its process stopped could not send, but had
    marked its standings said already, and nobody said them again. They are marked once sent."""
    tournament = _arena()
    _joined(tournament.pk, [alice, bob])
    sent: list[dict[str, Any]] = []
    real_send = core_realtime.send_now

    def send_now(group: str, message: dict[str, Any]) -> None:
        if not sent:
            sent.append({})
            raise RuntimeError("cannot schedule new futures after interpreter shutdown")
        sent.append(message["frame"])
        real_send(group, message)

    monkeypatch.setattr(core_realtime, "send_now", send_now)
    cache.clear()
    with pytest.raises(RuntimeError):
        realtime.standings_say(tournament.pk)
    realtime.standings_say(tournament.pk)  # the next change, or the tick
    final = realtime.standings_frame(Tournament.objects.get(pk=tournament.pk))["version"]
    assert [frame["version"] for frame in sent[1:]] == [final]
