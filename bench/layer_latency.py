"""How long a message published by another process (a Celery worker) takes to reach a page, on
the channel layer of the running configuration: `python -m bench.layer_latency`.

It starts Daphne on the site's settings (the embedded default unless DATABASE_URL/REDIS_URL say
otherwise), opens a spectator's socket at a table, and from this process (standing in for the
worker) publishes frames to that table's group, each carrying the time it was sent; the socket
reports when each arrived. Prints the median, p90, p99 and max over ``--samples`` messages.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup(var_dir: str) -> None:
    os.environ.setdefault("VAR_DIR", var_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _table_id() -> int:
    from accounts.services import player_create_guest
    from games.services.tables import table_create

    class Session(dict):
        session_key = None

        def save(self) -> None:
            pass

        def cycle_key(self) -> None:
            pass

    creator = player_create_guest(session=Session())
    table = table_create(
        creator=creator, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    return table.pk


async def _measure(port: int, table_id: int, samples: int) -> list[float]:
    import websockets
    from channels.layers import get_channel_layer
    from websockets.typing import Origin

    from games import realtime

    layer = get_channel_layer()
    assert layer is not None
    delays: list[float] = []
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/table/{table_id}/", origin=Origin("http://127.0.0.1")
    ) as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "state", first
        await asyncio.sleep(1)  # the socket has joined its groups
        for _ in range(samples):
            frame = {"type": "presence", "sent": time.time(), "version": 0}
            await layer.group_send(realtime.table_group(table_id), realtime.frame_event(frame))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message.get("sent") == frame["sent"]:
                    delays.append((time.time() - message["sent"]) * 1000)
                    break
            await asyncio.sleep(0.02)
    return delays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var_dir:
        _setup(var_dir)
        from django.conf import settings
        from django.core.management import call_command

        call_command("migrate_all", verbosity=0)
        table_id = _table_id()
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(args.port),
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=dict(os.environ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        try:
            time.sleep(4)
            delays = asyncio.run(_measure(args.port, table_id, args.samples))
        finally:
            server.terminate()
            server.wait(timeout=20)
        backend = str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).rsplit(".", 1)[-1]
    delays.sort()

    def pick(share: float) -> float:
        return delays[min(len(delays) - 1, int(share * len(delays)))]

    print(
        f"{backend}: publish from another process to the page, {len(delays)} messages: "
        f"p50 {statistics.median(delays):.1f} ms, p90 {pick(0.9):.1f} ms, "
        f"p99 {pick(0.99):.1f} ms, max {delays[-1]:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
