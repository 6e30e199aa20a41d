"""The load bench's players: a seat's socket (``SeatClient``), a client of ``docs/protocol.md``
and nothing else, and a table with its two seats (``LiveTable``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bench.load.data import Identity
from bench.load.sockets import Bench, open_socket

# A card code as the engines write them (docs/rules/README.md), standing alone in the text.
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|X[12])(?![A-Za-z0-9])")

T = TypeVar("T")


class SeatClient:
    """One player's table socket, a client of ``docs/protocol.md`` and nothing else."""

    def __init__(self, table: LiveTable, identity: Identity, node: int = 0) -> None:
        self.table = table
        self.bench = table.bench
        self.identity = identity
        self.node = node  # with several server instances, each seat of a table on its own
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.match_id: int | None = None
        self.awaiting: tuple[str, float, dict[str, Any], int] | None = None  # id, sent, act, v
        self.rematch_sent = False
        self.leaving = False
        self.left = asyncio.Event()
        self.first_state = asyncio.Event()
        self.last_state_at = 0.0
        self.acted_at = 0.0
        self.acked_at: float | None = None  # the ack of the act awaited, once it came
        self.sync_backoff = 0.5
        self.next_sync_at = 0.0
        self.waiting: set[asyncio.Future[None]] = set()  # syncs that wait for a state first

    @property
    def seat(self) -> int | None:
        return self.state["seat"] if self.state else None

    @property
    def playing(self) -> bool:
        return bool(self.state) and self.state["status"] == "playing"  # type: ignore[index]

    def to_act(self) -> bool:
        state = self.state
        return (
            state is not None
            and state["status"] == "playing"
            and state["view"] is not None
            and state["view"]["to_act"] == state["seat"]
            and bool(state["view"]["legal"])
            and self.awaiting is None
        )

    async def open(self, table_id: int) -> None:
        self.ws = await open_socket(
            self.bench, f"/ws/table/{table_id}/", self.identity.cookie, self.node
        )
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in self.ws:
                await self._handle(text)
        except ConnectionClosed:
            pass
        finally:
            self.bench.live_sockets -= 1
            code = self.ws.close_code
            self.bench.closes[str(code)] += 1

    async def send(self, message: dict[str, Any]) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(json.dumps(message, separators=(",", ":")))

    def _log_cards(self, text: str, version: int | None) -> None:
        codes = CARD.findall(text)
        if codes and self.match_id is not None:
            self.bench.frames.setdefault(self.match_id, []).append(
                (self.version if version is None else version, self.seat, frozenset(codes))
            )

    async def _handle(self, text: str) -> None:
        now = time.monotonic()
        frame = json.loads(text)
        kind = frame.get("type")
        recorder = self.bench.recorder
        if kind == "state":
            if frame.get("match") is not None:
                self.match_id = frame["match"]
            version = frame["version"]
            if version < self.version:
                return  # an older snapshot than the one held (protocol § Versions)
            held_match = self.state["match"] if self.state else None
            if self.version >= 0 and frame["match"] == held_match and version > self.version + 1:
                recorder.gaps += 1  # a state was lost on the way
            self.state = frame
            self.version = version
            self.last_state_at = now
            self.sync_backoff = 0.5  # any state resets the backoff
            self.next_sync_at = 0.0
            self._log_cards(text, version)
            if self.awaiting is not None and version >= self.awaiting[3]:
                self.awaiting = None
            self.first_state.set()
            self.table.seen(self, version, now)
            await self.table.on_state(self)
            return
        self._log_cards(text, None)
        if kind == "ack":
            if frame["id"] is None:  # the answer to leave
                self.left.set()
            elif self.awaiting is not None and frame["id"] == self.awaiting[0]:
                self.acked_at = now
                if recorder.counts(self.awaiting[1]):
                    recorder.acks.append(now - self.awaiting[1])
                    recorder.moves += 1
                if self.table.sync_spam and self.version < self.awaiting[3]:
                    # Legal, if not what the protocol advises: the move's state is on its way.
                    recorder.syncs += 1
                    await self.send({"type": "sync"})
        elif kind == "error":
            code = frame.get("code", "?")
            if self.awaiting is not None and frame.get("id") == self.awaiting[0]:
                action = self.awaiting[2]
                if code == "busy":  # nothing changed: the same act again, same id, a moment later
                    recorder.errors[code] += 1
                    await asyncio.sleep(0.2)
                    await self.send(action)
                    return
                self.awaiting = None
                self.table.pending.pop(self.version + 1, None)
            if (self.leaving or not self.table.running) and code in (
                "match_over",
                "not_seated",
                "no_match",
            ):
                # The bench's leave raced the end of the match, or this seat's last act raced
                # the other seat's leave when the bench stopped the table: not an error.
                if self.leaving:
                    self.left.set()
                return
            recorder.errors[code] += 1
            if code != "stale":  # a stale act is followed by a state; anything else: ask
                await self.sync()
        elif kind in ("pong", "presence"):
            self.expect(frame.get("version"))
        elif kind == "match_over":
            await self.table.on_over(self)
        elif kind == "rematch" and frame.get("table"):
            await self.table.on_rematch(frame["table"])

    async def act(self, scheduled: float) -> None:
        assert self.state is not None
        action = self.bench.rng.choice(self.state["view"]["legal"])  # sent unchanged
        action_id = f"b{next(self.bench.ids)}"
        message = {"type": "act", "version": self.version, "id": action_id, "action": action}
        self.awaiting = (action_id, scheduled, message, self.version + 1)
        self.table.pending[self.version + 1] = scheduled
        self.acted_at = time.monotonic()
        self.acked_at = None
        await self.send(message)

    def expect(self, version: Any) -> None:
        """A frame shows a version past our state: its state may still be on the way (a pong is
        answered directly, and frames to different groups overtake each other), so sync only if
        it has not come within a second (protocol § Versions)."""
        if not isinstance(version, int) or version <= self.version:
            return

        async def unless_caught_up() -> None:
            await asyncio.sleep(1.0)
            if self.version < version and not self.leaving:
                await self.sync()

        waiting = asyncio.ensure_future(unless_caught_up())
        self.waiting.add(waiting)
        waiting.add_done_callback(self.waiting.discard)

    async def sync(self) -> None:
        """Ask for a snapshot; another before a state has come waits 0.5 s, doubling up to 10 s,
        with ±50 % jitter (protocol § sync)."""
        now = time.monotonic()
        if now < self.next_sync_at:
            return
        self.next_sync_at = now + self.sync_backoff * random.uniform(0.5, 1.5)
        self.sync_backoff = min(10.0, self.sync_backoff * 2)
        self.bench.recorder.syncs += 1
        await self.send({"type": "sync"})

    async def leave(self, timeout: float = 10) -> None:
        if self.playing:
            self.leaving = True
            await self.send({"type": "leave"})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.left.wait(), timeout)

    async def close(self) -> None:
        for waiting in list(self.waiting):
            waiting.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None and self.reader is not asyncio.current_task():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 10)


class LiveTable:
    """One table and its two seat sockets; it knows when every seat holds a version."""

    def __init__(
        self,
        bench: Bench,
        table_id: int,
        identities: tuple[Identity, Identity],
        *,
        closed_loop: bool,
        sync_spam: bool = False,
    ) -> None:
        """``sync_spam``: its seats send ``sync`` whenever a move's ack comes before its state
        (issue 32: a client an independent tester wrote)."""
        self.bench = bench
        self.table_id = table_id
        self.identities = identities
        self.closed_loop = closed_loop
        self.sync_spam = sync_spam
        self.running = True
        self.clients = [SeatClient(self, who, node) for node, who in enumerate(identities)]
        self.held: dict[SeatClient, int] = {}
        self.pending: dict[int, float] = {}  # version a move will produce -> its start time
        self.table_ids = [table_id]
        self.switching: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await asyncio.gather(*(client.open(self.table_id) for client in self.clients))
        await asyncio.wait_for(
            asyncio.gather(*(client.first_state.wait() for client in self.clients)), 30
        )

    def seen(self, client: SeatClient, version: int, now: float) -> None:
        self.held[client] = version
        if len(self.held) < len(self.clients) or not self.pending:
            return
        everyone = min(self.held.values())
        recorder = self.bench.recorder
        for target in [v for v in self.pending if v <= everyone]:
            started = self.pending.pop(target)
            if recorder.counts(started):
                recorder.last_seat.append(now - started)

    def actor(self) -> SeatClient | None:
        return next((client for client in self.clients if client.to_act()), None)

    async def watch(self, now: float) -> None:
        """A state that did not come: a move's within 2 s of its ack (protocol § ack), an act
        still unanswered after 10 s, or, in the closed loop, any state for 2 s while nobody may
        act (the next actor's was lost). A slow ack is no reason to sync: the act is still being
        applied, and a snapshot asked for meanwhile only adds to the server's queue."""
        if self.switching is not None and not self.switching.done():
            return
        for client in self.clients:
            if client.awaiting is None:
                continue
            acked = client.acked_at
            if (acked is not None and now - acked > 2) or now - client.acted_at > 10:
                await client.sync()
        if (
            self.closed_loop
            and self.running
            and all(c.playing and c.awaiting is None for c in self.clients)
            and self.actor() is None
            and now - max(c.last_state_at for c in self.clients) > 2
        ):
            for client in self.clients:
                await client.sync()

    async def on_state(self, client: SeatClient) -> None:
        if self.closed_loop and self.running and client.to_act():
            await client.act(time.monotonic())

    async def on_over(self, client: SeatClient) -> None:
        if self.closed_loop and self.running and not client.rematch_sent:
            client.rematch_sent = True
            await client.send({"type": "rematch", "accept": True})

    async def on_rematch(self, new_table_id: int) -> None:
        """Both accepted: the client opens the new table's socket itself (protocol § rematch),
        from a task of its own (the socket that heard it is one of those it closes)."""
        if new_table_id in self.table_ids:
            return
        self.table_ids.append(new_table_id)
        if self.running:
            self.bench.recorder.rematches += 1
            self.switching = asyncio.ensure_future(self._switch(new_table_id))

    async def _switch(self, new_table_id: int) -> None:
        old = self.clients
        self.clients = [SeatClient(self, who) for who in self.identities]
        self.held = {}
        self.pending = {}
        self.table_id = new_table_id
        for client in old:
            await client.close()
        await self.open()

    async def finish(self) -> None:
        """Stop moving, leave the match if it is still on (a forfeit), close the sockets."""
        self.running = False
        if self.switching is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.switching, 30)
        for client in self.clients:
            if client.playing and client.seat is not None:
                await client.leave()
                break
        for client in self.clients:
            await client.close()


async def gather_limited(jobs: list[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    semaphore = asyncio.Semaphore(limit)

    async def one(job: Callable[[], Awaitable[T]]) -> T:
        async with semaphore:
            return await job()

    return await asyncio.gather(*(one(job) for job in jobs))
