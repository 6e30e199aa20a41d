"""What the site's Redis channel layer (``core.layers.RedisLayer``) does when Redis fails: a
restart, a network cut. Nothing raises into a socket; a move already committed stands.

A batch that could not be sent waits, in order, with any sent after it, and goes once Redis
answers (or is dropped after ``UNSENT_MAX_AGE_SECONDS``, by when every client has caught up
through its ``pong`` and ``sync``); the process's own members had theirs at once anyway. The idle
pooled connections are dropped at the first error, so none left from before a restart fails
again. And since group membership lives in Redis, which may come back empty, the process adds
every live member of its groups back once Redis answers, and whenever Redis's ``run_id`` says it
restarted (``verify_membership``, from the sockets' heartbeat). Then each of its sockets gets a
``layer.restored`` message: what other processes published before the members were back never
reached it, so it sends its client the state as it is now. One warning line marks the start of
an outage and one line its end (docs/concurrency.md § When a part fails).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from redis.exceptions import RedisError

logger = logging.getLogger("core.layers")

RETRY_SECONDS = 0.5  # between two attempts to reach Redis again during an outage
UNSENT_MAX_AGE_SECONDS = 30.0  # a batch older than this is of no use: clients have synced
UNSENT_MAX_BATCHES = 10_000  # what one process keeps for Redis during an outage, at most

REDIS_FAILURES = (OSError, RedisError)  # Redis down, restarting, or a connection left stale

# What each of a process's sockets is told once its groups are back in Redis after an outage:
# whatever crossed Redis meanwhile may have missed it, so it sends its client a fresh snapshot.
RESTORED = "layer.restored"


class OutageRepair:
    """The outage half of ``RedisLayer``: what waits for Redis, and the task that repairs it.
    The layer owns the state named here (``_forget_waiting`` resets it per event loop)."""

    _unsent: deque[tuple[float, list[str], bytes, str]]
    _members_lost: bool
    _outage: bool
    _repair: asyncio.Task[None] | None
    _reader_loop: asyncio.AbstractEventLoop | None
    _run_id: str | None
    _members: dict[str, set[str]]
    _groups_of: dict[str, set[str]]

    # The layer's own (annotations only: a method here would hide channels-redis's in the MRO).
    connection: Callable[[int], Any]
    _send_batch: Callable[[list[str], bytes, str], Awaitable[None]]
    _add_members: Callable[[Iterable[tuple[str, str]]], Awaitable[None]]
    _hand_over: Callable[[str, dict[str, Any]], None]

    def _keep_unsent(self, keys: list[str], payload: bytes, sender: str) -> None:
        if len(self._unsent) >= UNSENT_MAX_BATCHES:
            self._unsent.popleft()
        self._unsent.append((time.monotonic(), keys, payload, sender))

    # --- When Redis fails -----------------------------------------------------------------------

    def _redis_failed(self, error: BaseException) -> None:
        """Start (or continue) an outage: one line for it, and the repair running."""
        self._members_lost = True  # Redis may come back empty
        if not self._outage:
            self._outage = True
            logger.warning(
                "Redis unavailable (%s); the sockets stay open, and what they publish waits.",
                str(error).splitlines()[0] if str(error) else type(error).__name__,
            )
        self._repair_soon()

    def _repair_soon(self) -> None:
        """The repair runs in the sockets' loop, one at a time."""
        if self._reader_loop is None or asyncio.get_running_loop() is not self._reader_loop:
            return
        if self._repair is None or self._repair.done():
            self._repair = self._reader_loop.create_task(self._repair_until_healthy())

    async def _repair_until_healthy(self) -> None:
        """Drop the stale connections, then until Redis takes them: the members back, then the
        batches that waited, oldest first."""
        sent = dropped = 0
        await self._drop_idle_connections()
        while self._members_lost or self._unsent:
            try:
                if self._members_lost:
                    await self._restore_members()
                    for channel in list(self._groups_of):
                        self._hand_over(channel, {"type": RESTORED})
                while self._unsent:
                    stamp, keys, payload, sender = self._unsent[0]
                    if time.monotonic() - stamp > UNSENT_MAX_AGE_SECONDS:
                        dropped += 1
                    else:
                        await self._send_batch(keys, payload, sender)
                        sent += 1
                    self._unsent.popleft()
            except REDIS_FAILURES:
                await self._drop_idle_connections()
                await asyncio.sleep(RETRY_SECONDS)
        if self._outage:
            self._outage = False
            logger.warning(
                "Redis answers again: members added back, %s waiting batches sent, %s dropped.",
                sent,
                dropped,
            )

    async def _drop_idle_connections(self) -> None:
        """Connections made before a restart fail once each when next used: close them all
        now (those in use fail, and are dropped, by themselves)."""
        with contextlib.suppress(*REDIS_FAILURES):
            await self.connection(0).connection_pool.disconnect(inuse_connections=False)

    async def _restore_members(self) -> None:
        self._members_lost = False  # a failure from here on sets it again
        members = [
            (group, channel) for group, channels in self._members.items() for channel in channels
        ]
        try:
            self._run_id = await self._server_run_id()
            await self._add_members(members)
        except REDIS_FAILURES:
            self._members_lost = True
            raise

    async def _server_run_id(self) -> str:
        info = await self.connection(0).info("server")
        return str(info.get("run_id", ""))

    async def verify_membership(self) -> None:
        """Add this process's members back if Redis restarted since they were added (its
        ``run_id`` changed) without this process seeing an error. Called now and then (the
        sockets' heartbeat); one small round trip."""
        if not self._members or asyncio.get_running_loop() is not self._reader_loop:
            return
        try:
            run_id = await self._server_run_id()
        except REDIS_FAILURES as error:
            self._redis_failed(error)
            return
        if self._run_id is None:
            self._run_id = run_id
        elif run_id != self._run_id:
            self._redis_failed(RedisError(f"it restarted (run_id {run_id})"))
        elif self._members_lost or self._unsent:
            self._repair_soon()
