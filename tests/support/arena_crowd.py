"""An arena's players over real websockets (issue 29), clients of ``docs/protocol.md`` § The
tournament socket and the table socket and nothing else: each watches the tournament's
standings, and whenever told its next match is ready (``match_started``) opens that table and
plays legal moves until the match is over, until the standings say the event has ended."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import websockets

ANSWER_SECONDS = 30.0  # a frame on a loaded 2-core machine


@dataclass
class ArenaRecord:
    """What the players saw."""

    tables: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))  # by player
    standings_frames: int = 0
    last_standings: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))


class ArenaClient:
    def __init__(
        self, record: ArenaRecord, player_id: int, cookie: str, ws_url: str, rng: random.Random
    ) -> None:
        self.record = record
        self.id = player_id
        self.cookie = cookie
        self.ws_url = ws_url
        self.rng = rng
        self.ready: asyncio.Queue[int] = asyncio.Queue()
        self.over = asyncio.Event()
        self.acts = 0

    async def _connect(self, path: str) -> Any:
        return await websockets.connect(
            f"{self.ws_url}{path}",
            origin=self.ws_url.replace("ws://", "http://"),
            additional_headers={"Cookie": self.cookie},
            open_timeout=ANSWER_SECONDS,
            ping_interval=None,
        )

    async def _watch(self, tournament_id: int) -> None:
        """The tournament socket, reopened if the server drops it, until the event ends."""
        while not self.over.is_set():
            try:
                async with await self._connect(f"/ws/tournament/{tournament_id}/") as ws:
                    async for text in ws:
                        frame = json.loads(text)
                        if frame["type"] == "match_started":
                            self.ready.put_nowait(frame["table"])
                        elif frame["type"] == "standings":
                            self.record.standings_frames += 1
                            self.record.last_standings = frame
                            if frame["status"] in ("finished", "cancelled"):
                                self.over.set()
                                return
            except (OSError, websockets.ConnectionClosed):
                await asyncio.sleep(0.5)

    async def run(self, tournament_id: int, until: float) -> None:
        watcher = asyncio.create_task(self._watch(tournament_id))
        try:
            while not self.over.is_set() and time.monotonic() < until:
                try:
                    table = await asyncio.wait_for(self.ready.get(), 1.0)
                except TimeoutError:
                    continue
                self.record.tables[self.id].append(table)
                async with await self._connect(f"/ws/table/{table}/") as ws:
                    await self._play(ws, table)
        finally:
            watcher.cancel()

    async def _play(self, ws: Any, table: int) -> None:
        acted = -1
        while True:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), ANSWER_SECONDS))
            except TimeoutError:
                self.record.problems.append(f"player {self.id}: nothing from table {table}")
                return
            if frame["type"] == "error":
                self.record.errors[frame["code"]] += 1
                if frame["code"] in ("stale", "busy"):
                    acted = -1  # the state that follows is acted on again
                continue
            if frame["type"] != "state":
                continue
            if frame["status"] != "playing":
                return
            view = frame["view"]
            if view["to_act"] == frame["seat"] and view["legal"] and frame["version"] > acted:
                acted = frame["version"]
                self.acts += 1
                await ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "version": acted,
                            "id": f"a{self.id}-{self.acts}",
                            "action": self.rng.choice(view["legal"]),
                        }
                    )
                )


async def run_arena(clients: list[ArenaClient], tournament_id: int, seconds: float) -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(client.run(tournament_id, until) for client in clients))
