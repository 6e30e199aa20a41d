"""`make run`: the whole site from one command — Daphne (HTTP + websockets), a Celery worker
and Celery beat — stopped together on Ctrl-C. When any of the three dies, the others are
stopped and the exit code says so: a site without beat has no sweeps, no table expiry and no
session cleanup, so it must not go on quietly.

Usage: python scripts/serve.py [--host 127.0.0.1] [--port 8000]
"""

from __future__ import annotations

import argparse
import os
import signal
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


def commands(host: str, port: int | str) -> dict[str, list[str]]:
    """The three processes, by name (also what the tests start)."""
    celery = [str(BIN / "celery"), "-A", "config"]
    return {
        "web": [
            str(BIN / "daphne"),
            "--bind",
            host,
            "--port",
            str(port),
            "--websocket_timeout",
            "-1",
            "--websocket-max-message-size",
            str(DAPHNE_MAX_MESSAGE_BYTES),
            "--websocket-max-frame-size",
            str(DAPHNE_MAX_MESSAGE_BYTES),
            "config.asgi:application",
        ],
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
    args = parser.parse_args()

    # The settings module follows DJANGO_ENV in every process (config.mode); none is forced here.
    processes = {
        name: subprocess.Popen(command, cwd=ROOT, env=dict(os.environ), start_new_session=True)
        for name, command in commands(args.host, args.port).items()
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
