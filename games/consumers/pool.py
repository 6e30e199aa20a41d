"""Where a socket's database work runs, and the process heartbeat of its table sockets.

Database work runs in a bounded pool of threads (``LIVE_DB_THREADS``), so one table waiting on
a lock never holds up another table; the match row lock already orders each table's writes.
Whatever the work published on commit comes back to the async side, which sends it: no database
thread waits on the channel layer.

One heartbeat per process and event loop keeps the presence of all its table sockets fresh with
one UPDATE, and every few beats re-reads all their sessions with one query.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from accounts.sockets import players_active, sessions_alive

from .. import realtime
from ..services.presence import server_beat

logger = logging.getLogger(__name__)
T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=settings.LIVE_DB_THREADS, thread_name_prefix="socket-db"
        )
    return _executor


def _in_pool_thread(function: Callable[..., T]) -> Callable[..., tuple[T, list[realtime.Message]]]:
    """The work as a pool thread runs it: connections past their age are closed around it from
    inside the call, where the thread's connection lives (``CONN_MAX_AGE`` keeps the others)."""
    collect = realtime.collecting(function)

    def run(*args: Any, **kwargs: Any) -> tuple[T, list[realtime.Message]]:
        close_old_connections()
        try:
            return collect(*args, **kwargs)
        finally:
            close_old_connections()

    return run


async def run_db_unsent(
    function: Callable[..., T], *args: Any, **kwargs: Any
) -> tuple[T, list[realtime.Message]]:
    """Run ``function`` in the pool; return its result and what its commits published, unsent
    (for a socket that must send its own answer first)."""
    work = _in_pool_thread(function)
    if not settings.LIVE_DB_THREADS:  # no pool: Django's one shared thread (SQLite's tests)
        return await SyncToAsync(work, thread_sensitive=True)(*args, **kwargs)
    return await SyncToAsync(work, thread_sensitive=False, executor=_pool())(*args, **kwargs)


async def run_db(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` in the pool, then send what its commits published; return its result."""
    result, messages = await run_db_unsent(function, *args, **kwargs)
    await realtime.send_all(messages)
    return result


class BeatingSocket(Protocol):
    """What the heartbeat needs of a socket."""

    session_key: str | None
    player_id: int | None

    async def register(self) -> None: ...

    async def end_session(self) -> None: ...


class ServerHeartbeat:
    """The heartbeat of one process's table sockets (one per event loop)."""

    def __init__(self) -> None:
        self.name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.sockets: set[BeatingSocket] = set()
        self.task: asyncio.Task[None] | None = None

    def add(self, sock: BeatingSocket) -> None:
        self.sockets.add(sock)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    def discard(self, sock: BeatingSocket) -> None:
        self.sockets.discard(sock)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        beats = 0
        while self.sockets:
            await asyncio.sleep(settings.LIVE_HEARTBEAT_SECONDS)
            beats += 1
            try:
                await self._beat(check_sessions=beats % settings.LIVE_SESSION_CHECK_BEATS == 0)
            except Exception:  # a database hiccup: try again next beat
                logger.exception("Heartbeat of %s failed", self.name)

    async def _beat(self, *, check_sessions: bool) -> None:
        alive = await run_db(server_beat, server_name=self.name)
        sockets = list(self.sockets)
        if not alive:  # the sweep took this process for dead after a stall: come back
            for sock in sockets:
                await sock.register()
        if not check_sessions:
            return
        keys = {sock.session_key for sock in sockets if sock.session_key}
        players = {sock.player_id for sock in sockets if sock.player_id is not None}
        now = timezone.now()
        live_keys = await run_db(sessions_alive, keys, now)
        live_players = await run_db(players_active, players)
        for sock in sockets:
            ended_session = sock.session_key is not None and sock.session_key not in live_keys
            ended_player = sock.player_id is not None and sock.player_id not in live_players
            if ended_session or ended_player:
                await sock.end_session()


_heartbeats: dict[asyncio.AbstractEventLoop, ServerHeartbeat] = {}


def heartbeat() -> ServerHeartbeat:
    loop = asyncio.get_running_loop()
    for old in [old for old in _heartbeats if old.is_closed()]:
        del _heartbeats[old]
    if loop not in _heartbeats:
        _heartbeats[loop] = ServerHeartbeat()
    return _heartbeats[loop]
