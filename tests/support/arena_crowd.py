"""An arena's players over real websockets (issue 29), clients of ``docs/protocol.md`` § The
tournament socket and the table socket and nothing else: each watches the tournament's
standings, and whenever told its next match is ready (``match_started``) opens that table and
plays legal moves until the match is over, until the standings say the event has ended. Each
reads the event's page as a browser does, at the start and after every match.

``play_order_runs`` scores the event again from its matches alone, by docs/tournaments.md §
Points, for the test to hold the site's standings against (issue 40)."""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
import urllib.error
import urllib.request
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
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
    pages: list[int] = field(default_factory=list)  # the event page's answers, by status


def read_page(url: str, cookie: str | None = None) -> int:
    """One GET of a page, as a browser sends it; its status (a 500 is an answer, not a raise)."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=ANSWER_SECONDS) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


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

    async def _read_page(self, tournament_id: int) -> None:
        url = f"{self.ws_url.replace('ws://', 'http://')}/tournaments/{tournament_id}/"
        self.record.pages.append(await asyncio.to_thread(read_page, url, self.cookie))

    async def run(self, tournament_id: int, until: float) -> None:
        watcher = asyncio.create_task(self._watch(tournament_id))
        try:
            await self._read_page(tournament_id)
            while not self.over.is_set() and time.monotonic() < until:
                try:
                    table = await asyncio.wait_for(self.ready.get(), 1.0)
                except TimeoutError:
                    continue
                self.record.tables[self.id].append(table)
                async with await self._connect(f"/ws/table/{table}/") as ws:
                    await self._play(ws, table)
                await self._read_page(tournament_id)
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


# The scoring again, from the matches alone (docs/tournaments.md § Points) ----------------------

ARENA_POINTS = {2: (2, 0), 4: (4, 2, 1, 0)}  # by place, the doc's table


@dataclass
class Run:
    """One player's arena run as the rules score it: each match's points and whether doubled,
    in the order the matches ended, and whether they are on fire after it."""

    line: list[tuple[int, bool]] = field(default_factory=list)
    on_fire: bool = False
    wins_in_a_row: int = 0

    @property
    def total(self) -> int:
        return sum(points for points, _ in self.line)


def play_order_runs(matches: Iterable[tuple[datetime, Mapping[int, int]]]) -> dict[int, Run]:
    """Each player's run over ``matches`` (when each ended, and each player's place there, the
    winners sharing first as ``ladder.rating.placements`` gives them), in the order they ended:
    tied players share the mean of the points of the places they span, rounded half up; a win
    is a sole first place; after two wins in a row every match scores double, up to and
    including the first that is not a win."""
    runs: dict[int, Run] = defaultdict(Run)
    for _ended, places in sorted(matches, key=lambda match: match[0]):
        table = ARENA_POINTS[len(places)]
        for player, place in places.items():
            tied = sum(1 for other in places.values() if other == place)
            spanned = table[place - 1 : place - 1 + tied]
            points = math.floor(Fraction(sum(spanned), tied) + Fraction(1, 2))
            run = runs[player]
            doubled = run.wins_in_a_row >= 2
            run.line.append((points * 2 if doubled else points, doubled))
            won = place == 1 and tied == 1
            run.wins_in_a_row = run.wins_in_a_row + 1 if won else 0
            run.on_fire = run.wins_in_a_row >= 2
    return runs
