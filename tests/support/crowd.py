"""A crowd of quick-play players over real websockets (issue 28 § 2), clients of
``docs/protocol.md`` § Quick play and nothing else: each holds a lobby socket, waits in one or
two pools, leaves at random (while waiting, or after being paired), and when paired opens the
table and plays legal moves until the first hand is over, then leaves the match and waits
again. What every player was told and saw goes into one ``Record`` for the test to check
against the database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import websockets

POOLS = (
    "japanese_joker/fast/0/casual",
    "japanese_joker/fast/25/rated",
    "japanese_whist/fast/0/casual",
    "japanese_whist/normal/0/rated",
)
LEAVE_WHILE_WAITING = 0.35  # the share of joins left again after a random wait
WALK_AWAY = 0.06  # the share of pairings a player leaves instead of opening the table
NO_SHOW = 0.03  # ... or never opens: the sweep calls the table off after POOL_CONNECT_SECONDS
ANSWER_SECONDS = 30.0  # a lobby answer, or a frame at a table, on a loaded 2-core machine


@dataclass
class Record:
    """What the crowd was told and saw, by table id and player id."""

    told: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))  # `paired`
    started: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))  # playing
    hand_over: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    ended: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    called_off: set[int] = field(default_factory=set)
    # Per player: (monotonic time, "start" or "end", table), in the order the player saw them.
    timeline: dict[int, list[tuple[float, str, int]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    counts: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # "lobby:<code>", "table:<code>"
    problems: list[str] = field(default_factory=list)  # what a client could not make sense of
    refusals: list[str] = field(default_factory=list)  # each lobby error, who and when


class CrowdPlayer:
    """One simulated player: a lobby socket for the whole run, a table socket per table."""

    def __init__(
        self, record: Record, player_id: int, cookie: str, ws_url: str, rng: random.Random
    ) -> None:
        self.record = record
        self.id = player_id
        self.cookie = cookie
        self.ws_url = ws_url
        self.rng = rng
        self.lobby: Any = None
        self.answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()  # pool_ticket, error
        self.paired: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.called_off: dict[int, dict[str, Any]] = {}  # pool_called_off, by table
        self.ids = 0
        self.tables: list[tuple[float, int, str]] = []  # (when, table, what happened there)

    async def _connect(self, path: str) -> Any:
        origin = self.ws_url.replace("ws://", "http://")
        return await websockets.connect(
            f"{self.ws_url}{path}",
            origin=origin,
            additional_headers={"Cookie": self.cookie},
            open_timeout=ANSWER_SECONDS,
            ping_interval=None,  # the protocol's own pings; a slow server is not a gone one
        )

    async def _read_lobby(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.lobby:
                frame = json.loads(text)
                kind = frame["type"]
                if kind in ("pool_ticket", "error"):
                    await self.answers.put(frame)
                elif kind == "paired":
                    self.record.told[frame["table"]].add(self.id)
                    await self.paired.put(frame)
                elif kind == "pool_called_off":
                    self.called_off[frame["table"]] = frame

    async def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a pool message; its one answer (``pool_ticket`` or ``error``)."""
        await self.lobby.send(json.dumps(message))
        answer = await asyncio.wait_for(self.answers.get(), ANSWER_SECONDS)
        if answer["type"] == "error":
            self.record.errors[f"lobby:{answer['code']}"] += 1
            self.record.refusals.append(
                f"{time.monotonic():.2f} player {self.id} {message['type']}: {answer['code']}"
                f" {answer.get('message')}; tables seen {self.tables}"
            )
        return answer

    async def _leave(self) -> None:
        """``pool_leave``, again after a ``busy`` (a lock not had in time: nothing changed)."""
        for _ in range(5):
            answer = await self._ask({"type": "pool_leave"})
            if answer["type"] == "pool_ticket":
                return
            await asyncio.sleep(0.5)
        self.record.problems.append(f"player {self.id}: could not leave the pools")

    async def run(self, until: float) -> None:
        """Join, wait, leave or play, again and again until ``until``; then leave the pools."""
        self.lobby = await self._connect("/ws/lobby/")
        reader = asyncio.ensure_future(self._read_lobby())
        try:
            while time.monotonic() < until:
                await self._round(until)
            await self._leave()
            # A pairing that raced the last leave was called off by it; its `paired` may still
            # be on its way: read it, so that the record of who was told is whole.
            with contextlib.suppress(TimeoutError):
                while True:
                    late = await asyncio.wait_for(self.paired.get(), 2.0)
                    self.record.counts["paired_after_the_last_leave"] += 1
                    await self._at_table(late, until)
        except Exception as error:  # the test reads the record, not a traceback
            self.record.problems.append(f"player {self.id}: {type(error).__name__}: {error}")
        finally:
            await self.lobby.close()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _round(self, until: float) -> None:
        rng = self.rng
        pools = rng.sample(POOLS, rng.choice((1, 2)))
        answer = await self._ask({"type": "pool_join", "pools": pools, "fill_after": None})
        if answer["type"] == "error":
            # Paired meanwhile (a table called off sends its players who came back to the head
            # of their pools, and this join raced their next pairing): its `paired` is on its
            # way. The server says `already_seated` there as often as `paired` (the seat at the
            # paired table is checked first), so both wait for it.
            if answer["code"] not in ("paired", "already_seated"):
                await asyncio.sleep(0.5)
                return
            self.record.counts["joined_while_paired"] += 1
        else:
            self.record.counts["joins"] += 1
        patience = until - time.monotonic()
        if answer["type"] == "pool_ticket" and rng.random() < LEAVE_WHILE_WAITING:
            patience = min(patience, rng.uniform(0.5, 6.0))
        try:
            paired = await asyncio.wait_for(self.paired.get(), max(0.0, patience))
        except TimeoutError:
            await self._leave()
            self.record.counts["left_while_waiting"] += 1
            return
        await self._at_table(paired, until)

    async def _at_table(self, paired: dict[str, Any], until: float) -> None:
        table = paired["table"]
        draw = self.rng.random()
        if draw < WALK_AWAY and time.monotonic() < until:
            await self._leave()  # calls the table off
            self.record.counts["walked_away"] += 1
            self.tables.append((time.monotonic(), table, "walked away"))
            return
        if draw < WALK_AWAY + NO_SHOW and time.monotonic() < until:
            self.record.counts["no_show"] += 1
            deadline = time.monotonic() + 60
            while table not in self.called_off and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            if table not in self.called_off:
                self.record.problems.append(f"player {self.id}: table {table} never called off")
            self.tables.append((time.monotonic(), table, "no show"))
            return
        ws = await self._connect(f"/ws/table/{table}/")
        try:
            outcome = await self._play(ws, table)
        finally:
            await ws.close()
        self.tables.append((time.monotonic(), table, outcome))

    async def _play(self, ws: Any, table: int) -> str:
        """Legal moves until the first hand is over, then ``leave`` (a forfeit)."""
        record = self.record
        acted = -1
        left = False
        last_act: str | None = None
        while True:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), ANSWER_SECONDS))
            except TimeoutError:
                record.problems.append(f"player {self.id}: nothing from table {table}")
                return "silent"
            kind = frame["type"]
            if kind == "called_off":
                record.called_off.add(table)
                return "called off"
            if kind == "error":
                code = frame["code"]
                if left and code in ("match_over", "not_seated"):
                    continue  # the other seat's leave ended the match first
                record.errors[f"table:{code}"] += 1
                if code == "busy" and last_act is not None:  # nothing changed: the same again
                    await asyncio.sleep(0.2)
                    await ws.send(last_act)
                continue
            if kind != "state":
                continue
            status = frame["status"]
            if status == "cancelled":  # called off before this socket opened
                record.called_off.add(table)
                return "cancelled"
            if status == "open":
                continue
            if status != "playing":  # finished or aborted: the match is over
                record.ended[table].add(self.id)
                record.timeline[self.id].append((time.monotonic(), "end", table))
                return status
            if self.id not in record.started[table]:
                record.started[table].add(self.id)
                record.timeline[self.id].append((time.monotonic(), "start", table))
            view = frame["view"]
            if view["hand_number"] > 1:
                record.hand_over[table].add(self.id)
                if not left:
                    left = True
                    await ws.send(json.dumps({"type": "leave"}))
            elif view["to_act"] == frame["seat"] and view["legal"] and frame["version"] > acted:
                acted = frame["version"]
                self.ids += 1
                last_act = json.dumps(
                    {
                        "type": "act",
                        "version": acted,
                        "id": f"p{self.id}-{self.ids}",
                        "action": self.rng.choice(view["legal"]),
                    }
                )
                await ws.send(last_act)


async def run_crowd(players: list[CrowdPlayer], seconds: float) -> None:
    """Every player from now for ``seconds``, their starts spread over the first two."""
    until = time.monotonic() + seconds

    async def one(index: int, player: CrowdPlayer) -> None:
        await asyncio.sleep(2.0 * index / max(1, len(players)))
        await player.run(until)

    await asyncio.gather(*(one(index, player) for index, player in enumerate(players)))
