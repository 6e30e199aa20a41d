"""`make run`: the whole site from one command — Daphne (HTTP + websockets) and a Celery
worker with beat — stopped together on Ctrl-C.

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", default=os.environ.get("PORT", "8000"))
    args = parser.parse_args()

    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    commands = {
        "web": [
            str(BIN / "daphne"),
            "--bind",
            args.host,
            "--port",
            str(args.port),
            "--websocket_timeout",
            "-1",
            # Refuse huge frames before they reach the application (close 1009); the table
            # consumer's own limit is lower (LIVE_MAX_MESSAGE_BYTES, docs/protocol.md § Limits).
            "--websocket-max-message-size",
            "8192",
            "--websocket-max-frame-size",
            "8192",
            "config.asgi:application",
        ],
        "worker": [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--beat",
            "--pool",
            "threads",
            "--concurrency",
            "4",
            "--loglevel",
            "INFO",
        ],
    }
    processes = {
        name: subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
        for name, command in commands.items()
    }
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
                exit_code = process.returncode or 1
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
