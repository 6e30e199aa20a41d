"""`make run`: the whole site from one command — Daphne (HTTP + websockets), a Celery worker
and Celery beat — stopped together on Ctrl-C. When any of them dies, the others are stopped and
the exit code says so: a site without beat has no sweeps, no table expiry and no session
cleanup, so it must not go on quietly.

With PostgreSQL and Redis (``DATABASE_URL``, ``REDIS_URL``) it runs one Daphne process per core
on one listening socket, which the kernel shares out between them (``--web-processes`` or
``WEB_PROCESSES`` to choose); every process serves every table, since the state is in the
database and messages cross processes on Redis. On the embedded default (SQLite) it runs one.

Usage: python scripts/serve.py [--host 127.0.0.1] [--port 8000] [--web-processes N]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
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


def commands(listen_fd: int, web_processes: int = 1) -> dict[str, list[str]]:
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
    return {
        **{name: web for name in names},
        "worker": [
            *celery,
            "worker",
            "--pool",
            "threads",
            "--concurrency",
            "4",
            "--loglevel",
            "INFO",
        ],
        # Beat on its own: if it dies, that is a process exit this script sees.
        "beat": [*celery, "beat", "--loglevel", "INFO"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", default=os.environ.get("PORT", "8000"))
    parser.add_argument(
        "--web-processes",
        type=int,
        default=int(os.environ.get("WEB_PROCESSES") or default_web_processes()),
    )
    args = parser.parse_args()

    listener = listening_socket(args.host, args.port)
    # The settings module follows DJANGO_ENV in every process (config.mode); none is forced here.
    processes = {
        name: subprocess.Popen(
            command,
            cwd=ROOT,
            env={**CHILD_ENVIRONMENT_DEFAULTS, **os.environ},
            start_new_session=True,
            pass_fds=(listener.fileno(),),
        )
        for name, command in commands(listener.fileno(), max(1, args.web_processes)).items()
    }
    for name, process in processes.items():
        print(f"{name}: pid {process.pid}", flush=True)
    print(f"Serving on http://{args.host}:{args.port}/ — press Ctrl-C to stop.", flush=True)

    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    exit_code = 0
    while not stopping:
        for name, process in processes.items():
            if process.poll() is not None:
                print(f"{name} exited with code {process.returncode}; stopping.", flush=True)
                exit_code = process.returncode if process.returncode > 0 else 1
                stopping = True
        time.sleep(0.3)

    for process in processes.values():
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    for process in processes.values():
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
    print("Stopped.", flush=True)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
