"""`make run`: the whole site from one command — Daphne (HTTP + websockets), a Celery worker
and Celery beat — stopped together on Ctrl-C or SIGTERM.

A process that exits on its own is started again, so that one dead web process does not take
the site down, nor a dead beat leave it without sweeps, table expiry and session cleanup. It
says so in one line (``web-2 exited (pid 4242, killed by SIGKILL); restarting it in 1 s.``),
then waits before the restart: 1 s, doubling at each exit up to 30 s, and back to 1 s once the
process has stayed up 60 s. A process that keeps dying — its 5th exit within 5 minutes — stops
everything, with a line saying why and a non-zero exit code: restarting it forever would hide a
deploy that cannot work (a wrong ``DATABASE_URL``, a broken release). A restarted web process
accepts from the same listening socket as before (``daphne --fd``), which this script keeps
open, so the port never closes; its players' pages reconnect to whichever process the kernel
hands them, since every process serves every table. Beat is started again only after the old
one and anything it started are gone, so two never run at once.

With PostgreSQL and Redis (``DATABASE_URL``, ``REDIS_URL``) it runs one Daphne process per core
on one listening socket, which the kernel shares out between them (``--web-processes`` or
``WEB_PROCESSES`` to choose); every process serves every table, since the state is in the
database and messages cross processes on Redis. On the embedded default (SQLite) it runs one.

A second machine of the same site (docs/deploy.md § More than one machine) runs
``--web-only``: its Daphne processes and no worker or beat, since one worker and one beat serve
every machine through PostgreSQL and Redis.

Usage: python scripts/serve.py [--host 127.0.0.1] [--port 8000] [--web-processes N] [--web-only]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# Daphne's frame limit applies to what the server sends as well as to what it receives, so it
# is set far above any frame the site sends (a lobby page, a table's state); what a client may
# send is limited lower by the consumers themselves (LIVE_MAX_MESSAGE_BYTES, docs/protocol.md
# § Limits). It still bounds the memory one unauthenticated frame can take.
DAPHNE_MAX_MESSAGE_BYTES = 1024 * 1024
# glibc gives every thread that allocates its own malloc arena, up to 8 a core; a web process's
# database threads (LIVE_DB_THREADS) each kept one, with its own free space. Two arenas a
# process held ~4 KB less memory per live table under load (make bench). A value in the
# environment wins.
CHILD_ENVIRONMENT_DEFAULTS = {"MALLOC_ARENA_MAX": "2"}
# The restart policy (module docstring): short enough that a player's reconnect finds the
# process back, long enough that a process failing at start-up does not spin.
RESTART_FIRST_DELAY_SECONDS = 1.0
RESTART_LONGEST_DELAY_SECONDS = 30.0
STEADY_SECONDS = 60.0  # up this long, a process's next exit is a fresh failure: 1 s again
GIVE_UP_EXITS = 5  # this many exits of one process ...
GIVE_UP_WINDOW_SECONDS = 300.0  # ... within this long stop everything
POLL_SECONDS = 0.3
STOP_TIMEOUT_SECONDS = 10.0


def default_web_processes() -> int:
    """One per core where the database and the channel layer span processes, else one."""
    shared = os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get(
        "REDIS_URL"
    )
    return (os.cpu_count() or 1) if shared else 1


def listening_socket(host: str, port: int | str) -> socket.socket:
    """The one socket every Daphne process accepts from (``daphne --fd``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, int(port)))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def commands(
    listen_fd: int, web_processes: int = 1, *, web_only: bool = False
) -> dict[str, list[str]]:
    """The processes, by name (also what the tests start)."""
    celery = [str(BIN / "celery"), "-A", "config"]
    web = [
        str(BIN / "daphne"),
        "--fd",
        str(listen_fd),
        "--websocket_timeout",
        "-1",
        "--websocket-max-message-size",
        str(DAPHNE_MAX_MESSAGE_BYTES),
        "--websocket-max-frame-size",
        str(DAPHNE_MAX_MESSAGE_BYTES),
        "config.asgi:application",
    ]
    names = ["web"] if web_processes == 1 else [f"web-{n}" for n in range(1, web_processes + 1)]
    if web_only:
        return {name: web for name in names}
    return {
        **{name: web for name in names},
        "worker": [
            *celery,
            "worker",
            "--pool",
            "threads",
            "--concurrency",
            # Threads: the tasks mostly wait on PostgreSQL and Redis (the worker used a fifth of
            # a core in the arena bench while its queue waited for four busy threads).
            os.environ.get("WORKER_THREADS", "8"),
            # Workers need not talk among themselves (no remote control is used); the gossip's
            # restart after a broker outage failed with a traceback.
            "--without-gossip",
            "--without-mingle",
            "--loglevel",
            "INFO",
        ],
        # Beat on its own: if it dies, that is a process exit this script sees.
        "beat": [*celery, "beat", "--loglevel", "INFO"],
    }


@dataclass
class Backoff:
    """When to start one process again after it exits, and when to give up on it. It reads no
    clock: the caller says when the process started and when it exited."""

    first: float = RESTART_FIRST_DELAY_SECONDS
    longest: float = RESTART_LONGEST_DELAY_SECONDS
    steady: float = STEADY_SECONDS
    give_up_exits: int = GIVE_UP_EXITS
    window: float = GIVE_UP_WINDOW_SECONDS
    delay: float = 0.0
    exits: list[float] = field(default_factory=list)

    def exited(self, started_at: float, now: float) -> float | None:
        """The seconds to wait before the next start, or None: it keeps dying, stop trying."""
        self.exits = [*(when for when in self.exits if now - when < self.window), now]
        if len(self.exits) >= self.give_up_exits:
            return None
        if self.delay == 0 or now - started_at >= self.steady:
            self.delay = self.first
        else:
            self.delay = min(self.longest, self.delay * 2)
        return self.delay


def how_it_ended(returncode: int) -> str:
    """``exit code 3``, or ``killed by SIGKILL`` (Popen gives a signal as a negative code)."""
    if returncode >= 0:
        return f"exit code {returncode}"
    try:
        return f"killed by {signal.Signals(-returncode).name}"
    except ValueError:
        return f"killed by signal {-returncode}"


@dataclass
class Child:
    """One supervised process: running (``process``) or waiting to start again (``due``)."""

    name: str
    command: list[str]
    backoff: Backoff = field(default_factory=Backoff)
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    due: float | None = None


def end_group(pid: int) -> None:
    """Kill what an exited process left in its session (started with ``start_new_session``, its
    process group has its pid), so that nothing of it runs beside its successor."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", default=os.environ.get("PORT", "8000"))
    parser.add_argument(
        "--web-processes",
        type=int,
        default=int(os.environ.get("WEB_PROCESSES") or default_web_processes()),
    )
    parser.add_argument(
        "--web-only",
        action="store_true",
        default=os.environ.get("WEB_ONLY", "") == "1",
        help="Daphne processes only: another machine runs the worker and beat",
    )
    args = parser.parse_args()

    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)

    listener = listening_socket(args.host, args.port)

    def start(child: Child) -> None:
        # The settings module follows DJANGO_ENV in every process (config.mode); none is forced.
        child.process = subprocess.Popen(
            child.command,
            cwd=ROOT,
            env={**CHILD_ENVIRONMENT_DEFAULTS, **os.environ},
            start_new_session=True,
            pass_fds=(listener.fileno(),),
        )
        child.started_at = time.monotonic()
        child.due = None
        print(f"{child.name}: pid {child.process.pid}", flush=True)

    children = [
        Child(name, command)
        for name, command in commands(
            listener.fileno(), max(1, args.web_processes), web_only=args.web_only
        ).items()
    ]
    exit_code = 0
    try:
        for child in children:
            start(child)
        print(f"Serving on http://{args.host}:{args.port}/ — press Ctrl-C to stop.", flush=True)
        while not stopping:
            for child in children:
                if child.process is not None and child.process.poll() is not None:
                    code = child.process.returncode
                    ended = f"{child.name} exited (pid {child.process.pid}, {how_it_ended(code)})"
                    end_group(child.process.pid)
                    child.process = None
                    delay = child.backoff.exited(child.started_at, time.monotonic())
                    if delay is None:
                        print(
                            f"{ended}: {GIVE_UP_EXITS} exits within"
                            f" {GIVE_UP_WINDOW_SECONDS / 60:g} minutes, it keeps dying;"
                            " stopping everything.",
                            flush=True,
                        )
                        exit_code = code if code > 0 else 1
                        stopping = True
                        break
                    print(f"{ended}; restarting it in {delay:g} s.", flush=True)
                    child.due = time.monotonic() + delay
                elif child.due is not None and time.monotonic() >= child.due and not stopping:
                    start(child)
            time.sleep(POLL_SECONDS)
    finally:  # also when this script fails: nothing it started outlives it
        stop_all([child.process for child in children if child.process is not None])
        print("Stopped.", flush=True)
    return exit_code


def stop_all(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each, a few seconds to finish, then SIGKILL."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
    for process in processes:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
        end_group(process.pid)


if __name__ == "__main__":
    sys.exit(main())
