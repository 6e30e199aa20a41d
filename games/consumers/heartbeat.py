"""The process heartbeat of the table sockets: one per process and event loop keeps the presence
of all its sockets fresh with one UPDATE, and every few beats re-reads all their sessions with
one query (docs/protocol.md § How presence survives a crash).

Each beat also ties the process's presence rows to its live sockets: a row that no live socket
has owned for two beats in a row (its close could not reach the database) is removed, so a
player is present exactly while one of their sockets is open. (One beat is not enough: a socket
leaves the heartbeat a moment before its own close deletes its row.) And it asks the channel
layer to check that Redis still knows the sockets' groups
(``core.layers.RedisLayer.verify_membership``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from typing import Protocol

from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from accounts.sockets import players_active, sessions_alive
from core.outage import database_unavailable, is_connection_failure
from core.pool import run_db

from ..services.presence import server_beat, server_channels, sockets_gone

logger = logging.getLogger(__name__)


class BeatingSocket(Protocol):
    """What the heartbeat needs of a socket."""

    channel_name: str
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
        self.ownerless: set[str] = set()  # rows no live socket owned at the last beat

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
            except Exception as error:  # a database hiccup: try again next beat
                if is_connection_failure(error):
                    database_unavailable(error)
                else:
                    logger.exception("Heartbeat of %s failed", self.name)

    async def _beat(self, *, check_sessions: bool) -> None:
        alive = await run_db(server_beat, server_name=self.name)
        sockets = list(self.sockets)
        if not alive:  # the sweep took this process for dead after a stall: come back
            for sock in sockets:
                await sock.register()
        await self._forget_gone_sockets()
        layer = get_channel_layer()
        verify = getattr(layer, "verify_membership", None)
        if verify is not None:
            await verify()
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

    async def _forget_gone_sockets(self) -> None:
        """Remove this process's rows that no live socket owned at this beat or the last. The
        live set is read after the rows: a socket joins it before writing its row, so a row is
        never taken for ownerless while its socket is still registering."""
        channels = await run_db(server_channels, server_name=self.name)
        ownerless = channels - {sock.channel_name for sock in self.sockets}
        gone, self.ownerless = ownerless & self.ownerless, ownerless
        if gone:
            logger.warning("%s presence rows of %s had no live socket", len(gone), self.name)
            await run_db(sockets_gone, channel_names=gone)
            self.ownerless -= gone


_heartbeats: dict[asyncio.AbstractEventLoop, ServerHeartbeat] = {}


def heartbeat() -> ServerHeartbeat:
    loop = asyncio.get_running_loop()
    for old in [old for old in _heartbeats if old.is_closed()]:
        del _heartbeats[old]
    if loop not in _heartbeats:
        _heartbeats[loop] = ServerHeartbeat()
    return _heartbeats[loop]
