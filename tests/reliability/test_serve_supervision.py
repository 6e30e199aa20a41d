"""Issue 25: one dead web process no longer takes the site down. ``scripts/serve.py`` starts a
process that exits again after a pause (``Backoff``), says so in one line, and stops everything
only when one keeps dying; a Daphne killed with SIGKILL under it leaves the site answering, and
its players reconnect to the same port and play on in the same hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets
from channels.db import database_sync_to_async as sync_to_async  # closes its connections

from scripts.serve import Backoff, how_it_ended
from tests.support.daphne import Remote, play_remotes, session_cookie
from tests.support.live import start_table
from tests.support.site import ServedSite

from .conftest import ROOT

# The policy, step by step: (when the process started, when it exited) -> the pause before the
# next start, or None: it keeps dying, stop everything.
BACKOFF_CASES = {
    "dies at once: 1, 2, 4, 8 s, and the 5th exit within 5 minutes stops everything": [
        ((0, 1), 1),
        ((2, 3), 2),
        ((5, 6), 4),
        ((10, 11), 8),
        ((19, 20), None),
    ],
    "up a minute before each exit: 1 s each time, but still 5 exits within 5 minutes": [
        ((0, 61), 1),
        ((62, 123), 1),
        ((124, 185), 1),
        ((186, 247), 1),
        ((248, 309), None),
    ],
    "up two minutes before each exit: 1 s each time, never more than 3 exits within 5 min": [
        ((0, 120), 1),
        ((121, 241), 1),
        ((242, 362), 1),
        ((363, 483), 1),
        ((484, 604), 1),
        ((605, 725), 1),
    ],
    "a minute up starts the doubling again, and old exits leave the window": [
        ((0, 1), 1),
        ((2, 3), 2),
        ((5, 6), 4),
        ((10, 11), 8),
        ((19, 419), 1),
        ((420, 421), 2),
        ((423, 424), 4),
        ((428, 429), 8),
        ((437, 438), None),
    ],
}


@pytest.mark.parametrize("steps", BACKOFF_CASES.values(), ids=BACKOFF_CASES.keys())
def test_backoff_doubles_resets_after_a_steady_minute_and_gives_up_on_a_process_that_keeps_dying(
    steps,
):
    backoff = Backoff()
    assert [backoff.exited(started, now) for (started, now), _ in steps] == [
        expected for _, expected in steps
    ]


def test_backoff_waits_at_most_thirty_seconds():
    backoff = Backoff(give_up_exits=100)
    delays = [backoff.exited(started_at=step * 100, now=step * 100 + 1) for step in range(8)]
    assert delays == [1, 2, 4, 8, 16, 30, 30, 30]


@pytest.mark.parametrize(
    "returncode, said",
    [(0, "exit code 0"), (3, "exit code 3"), (-9, "killed by SIGKILL"), (-15, "killed by SIGTERM")],
)
def test_an_exit_is_told_by_its_code_or_its_signal(returncode, said):
    assert how_it_ended(returncode) == said


# serve.py's loop with stand-in processes: one that always fails at once, one that never ends.
STAND_INS = """
import sys
sys.path.insert(0, "scripts")
import serve
python = sys.executable
serve.commands = lambda fd, web_processes=1, web_only=False: {
    "flaky": [python, "-c", "import time; time.sleep(0.2); raise SystemExit(3)"],
    "steady": [python, "-c", "import time; time.sleep(600)"],
}
sys.argv = ["serve.py", "--port", "0"]
sys.exit(serve.main())
"""


@pytest.mark.slow
def test_serve_restarts_a_process_that_exits_and_stops_everything_when_it_keeps_dying():
    """Pass: the failing process is started again four times after 1, 2, 4 and 8 s, each with
    a line that names it, its pid and its exit code; its fifth exit stops the other process
    too, with a line saying why, and serve.py exits with the failing process's code."""
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", STAND_INS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout
    assert result.returncode == 3, output + result.stderr
    restarts = re.findall(
        r"^flaky exited \(pid (\d+), exit code 3\); restarting it in (\d+) s\.$", output, re.M
    )
    assert [delay for _, delay in restarts] == ["1", "2", "4", "8"], output
    flaky = re.findall(r"^flaky: pid (\d+)$", output, re.M)
    assert [pid for pid, _ in restarts] == flaky[:4] and len(flaky) == 5, output
    assert re.search(
        rf"^flaky exited \(pid {flaky[-1]}, exit code 3\): 5 exits within 5 minutes, it keeps"
        r" dying; stopping everything\.$",
        output,
        re.M,
    ), output
    assert output.rstrip().endswith("Stopped."), output
    assert time.monotonic() - started >= 15  # the pauses were kept
    steady = int(re.search(r"^steady: pid (\d+)$", output, re.M)[1])
    assert not Path(f"/proc/{steady}").exists()  # stopped with the rest (and reaped)
    assert len(re.findall(r"^steady: pid", output, re.M)) == 1  # never restarted


# --- A web process killed under the real serve.py -----------------------------------------------

WAIT_SECONDS = 90  # a generous bound on a loaded 2-core machine; each step takes a few seconds


def page_status(port: int) -> int | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=15) as page:
            return page.status
    except OSError:
        return None


class Prober:
    """GET / over and over in a thread while it runs. A request that the killed process had
    already accepted dies with it, so each probe may try once more on a new connection, as a
    browser's reload would; a probe that fails twice is an outage."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.answered = 0
        self.failures: list[str] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Prober:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.done.set()
        self.thread.join(timeout=60)

    def _run(self) -> None:
        while not self.done.is_set():
            statuses = [page_status(self.port)]
            if statuses[0] != 200:
                statuses.append(page_status(self.port))
            if statuses[-1] == 200:
                self.answered += 1
            else:
                self.failures.append(f"{time.strftime('%X')}: {statuses}")
            self.done.wait(0.2)


def serving_pid(remote: Remote, server_port: int, pids: list[int]) -> int | None:
    """Which of ``pids`` holds the server's end of ``remote``'s connection (/proc/net/tcp gives
    the connection's socket inode; /proc/PID/fd, which process has it)."""
    client_port = remote.ws.local_address[1]
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, peer, established = fields[1], fields[2], fields[3] == "01"
        ports = (int(local.split(":")[1], 16), int(peer.split(":")[1], 16))
        if established and ports == (server_port, client_port):
            inode = fields[9]
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) == f"socket:[{inode}]":
                        return pid
    return None


async def until(check, what: str, serve: ServedSite) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not check():
        assert time.monotonic() < deadline, f"never happened: {what}\n{serve.output()}"
        await asyncio.sleep(0.2)


@pytest.fixture
def serve(tmp_path, transactional_db) -> Iterator[ServedSite]:
    server = ServedSite(
        tmp_path,
        LIVE_RATE_PER_SECOND="10000",
        LIVE_RATE_BURST="10000",
        # No clock may play or forfeit for a player while the test kills and waits.
        TURN_SECONDS="600",
        ABSENCE_GRACE_SECONDS="600",
    )
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
async def test_a_web_process_killed_under_serve_py_leaves_the_site_up_and_its_players_playing(
    alice, bob, serve, settings
):
    """Pass: with two Daphnes under serve.py and the two players of a Japanese Joker match on
    them, a SIGKILL to the process of the first player's socket leaves serve.py running; it
    prints the exit with the signal and restarts that process; GET / answers 200 all along; the
    players whose socket closed reconnect to the same port and get the same version and the same
    hand; the restarted process serves sockets again (from the same listening socket); and the
    match goes on, every move acknowledged."""
    settings.TURN_SECONDS = 600  # the first turn's clock is armed here, by start_table
    assert settings.REDIS_URL
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob], options={"points": 11})
    url = f"ws://127.0.0.1:{serve.port}/ws/table/{table.pk}/"
    cookies = {player.name: await sync_to_async(session_cookie)(player) for player in (alice, bob)}
    webs = serve.web_pids()
    remotes = {}
    for cookie in cookies.values():
        remote = await Remote(cookie).connect(url)
        remotes[remote.state["seat"]] = remote
    # The kernel hands each connection to either process; with one player on each, the killed
    # process's player reconnects while the other's socket stays open on the survivor.
    for _ in range(20):
        if serving_pid(remotes[0], serve.port, [*webs.values()]) != serving_pid(
            remotes[1], serve.port, [*webs.values()]
        ):
            break
        await remotes[1].close()
        await remotes[1].connect(url)
    served_by = {seat: serving_pid(r, serve.port, [*webs.values()]) for seat, r in remotes.items()}
    assert served_by[0] in webs.values(), (served_by, webs, serve.output())

    rng = random.Random(25)
    moves = await play_remotes(table.pk, remotes, rng, stop=lambda moves, state: moves >= 6)
    before = {seat: remote.state for seat, remote in remotes.items()}
    victim = served_by[0]
    name = next(name for name, pid in webs.items() if pid == victim)
    dropped = [seat for seat, pid in served_by.items() if pid == victim]

    with Prober(serve.port) as prober:
        os.kill(victim, signal.SIGKILL)
        for seat in dropped:
            with pytest.raises(websockets.ConnectionClosed):
                while True:  # frames still on their way, then the end of the connection
                    await remotes[seat].recv(timeout=WAIT_SECONDS)
            await remotes[seat].connect(url)  # the same port, as the page's reconnect does
            assert remotes[seat].state["version"] == before[seat]["version"]
            assert remotes[seat].state["view"] == before[seat]["view"]  # the same hand

        restart = f"{name} exited (pid {victim}, killed by SIGKILL); restarting it in 1 s."
        await until(lambda: restart in serve.output(), "the restart line", serve)
        await until(lambda: serve.web_pids()[name] != victim, "the restarted process", serve)
        restarted = serve.web_pids()[name]
        assert serve.process.poll() is None, serve.output()

        # The restarted process accepts from the same socket: new sockets reach it too.
        reached = False
        deadline = time.monotonic() + WAIT_SECONDS
        while not reached and time.monotonic() < deadline:
            probe = await Remote(cookies["alice"]).connect(url)
            assert probe.version == before[0]["version"]
            reached = serving_pid(probe, serve.port, [restarted]) == restarted
            await probe.close()
            await asyncio.sleep(0.2)
        assert reached, f"no socket reached the restarted {name} (pid {restarted})"

    assert prober.answered > 0 and not prober.failures, (prober.failures, serve.output())
    # The match goes on with both players (an ack for every move, in play_remotes).
    moves += await play_remotes(table.pk, remotes, rng, stop=lambda more, state: more >= 6)
    assert moves >= 12
    assert serve.process.poll() is None and "stopping everything" not in serve.output()
    for remote in remotes.values():
        await remote.close()
