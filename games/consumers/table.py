"""The table socket (``/ws/table/<id>/``): parse, call one service, send the receiver's view.

Everything the socket says is documented in ``docs/protocol.md``; every rule of play, presence
and time lives in ``games.services.play``. What lives here is the edge: who is asking (from the
session, never from the client), the guards (frame size, rate, garbage, session still valid),
and forwarding the frames the services published to this socket's groups. Every message is
handled in the language of the page that opened the socket, so each error reads in it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from accounts.access import player_from
from accounts.errors import ServiceError
from config.websocket import PageLanguageMixin, TokenBucket

from .. import realtime
from ..messages import Act, BadMessage, Leave, Message, Ping, Rematch, Sync, parse
from ..services import play

logger = logging.getLogger(__name__)

# Daphne (autobahn) lets an application close only with 1000 or 3000-4999, so the policy codes
# of RFC 6455 are sent as 4000 + the RFC code (docs/protocol.md § Close codes).
CLOSE_POLICY = 4008  # flood, too many bad messages (RFC 1008)
CLOSE_TOO_BIG = 4009  # frame over LIVE_MAX_MESSAGE_BYTES (RFC 1009)
CLOSE_SESSION_ENDED = 4003
CLOSE_NO_TABLE = 4004


class TableConsumer(PageLanguageMixin, AsyncWebsocketConsumer):
    table_id: int
    seat: int | None = None
    version = 0
    registered = False
    closing = False

    # --- Lifecycle -------------------------------------------------------------------------------

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.groups_joined: list[str] = []
        self.bucket = TokenBucket(settings.LIVE_RATE_PER_SECOND, settings.LIVE_RATE_BURST)
        self.bad_messages = 0
        self.heartbeat: asyncio.Task[None] | None = None
        self.player = await database_sync_to_async(player_from)(
            self.scope.get("user"), self.scope.get("session")
        )
        await self.accept()
        try:
            self.seat = await database_sync_to_async(play.table_access)(
                table_id=self.table_id, player=self.player
            )
        except ServiceError:
            # Accept, then close with a code the page can read (a refused handshake says nothing).
            self.closing = True
            await self.close(code=CLOSE_NO_TABLE)
            return
        # Join the groups before the snapshot, so no frame published in between is missed.
        if self.seat is None:
            self.groups_joined.append(realtime.table_spectator_group(self.table_id))
        else:
            self.groups_joined.append(realtime.table_seat_group(self.table_id, self.seat))
        self.groups_joined.append(realtime.table_group(self.table_id))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self._register()
        self.heartbeat = asyncio.ensure_future(self._beat())

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.registered:
            await database_sync_to_async(play.seat_disconnected)(channel_name=self.channel_name)

    async def _register(self) -> None:
        connected = await database_sync_to_async(play.seat_connected)(
            table_id=self.table_id,
            seat=self.seat,
            player=self.player,
            channel_name=self.channel_name,
        )
        self.registered = True
        await self._send(connected.frame)

    async def _beat(self) -> None:
        """Server-side heartbeat: keep this socket's presence row fresh; re-check the session."""
        while True:
            await asyncio.sleep(settings.LIVE_HEARTBEAT_SECONDS)
            try:
                status = await database_sync_to_async(play.connection_heartbeat)(
                    channel_name=self.channel_name,
                    user=self.scope.get("user"),
                    session=self.scope.get("session"),
                )
            except Exception:  # a database hiccup: try again next beat
                logger.exception("Heartbeat failed for %s", self.channel_name)
                continue
            if status == "ended":
                await self._close(CLOSE_SESSION_ENDED)
                return
            if status == "gone":  # the sweep took us for dead (a long stall): come back
                await self._register()

    # --- Inbound ---------------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > settings.LIVE_MAX_MESSAGE_BYTES:
            await self._error(
                "too_big",
                gettext("A frame may be at most %(bytes)s bytes.")
                % {"bytes": settings.LIVE_MAX_MESSAGE_BYTES},
            )
            await self._close(CLOSE_TOO_BIG)
            return
        if not self.bucket.take():
            await self._error("flood", gettext("Too many messages; this socket is closed."))
            await self._close(CLOSE_POLICY)
            return
        try:
            if text_data is None:
                raise BadMessage(gettext("Send JSON text frames."), code="bad_json")
            message = parse(text_data)
        except BadMessage as error:
            await self._bad(error)
            return
        await self.dispatch_message(message)

    async def dispatch_message(self, message: Message) -> None:
        handler = getattr(self, f"handle_{message.type}")
        try:
            await handler(message)
        except ServiceError as error:
            await self._error(error.code, str(error), getattr(message, "id", None))
            if error.code == "stale":
                await self._snapshot()

    async def handle_act(self, message: Act) -> None:
        if message.table is not None and message.table != self.table_id:
            raise ServiceError(gettext("This socket belongs to another table."), code="wrong_table")
        if self.seat is None:
            raise ServiceError(
                gettext("You are watching this table; only its players move."), code="not_seated"
            )
        outcome = await database_sync_to_async(play.match_act)(
            table_id=self.table_id,
            player=self.player,
            version=message.version,
            action=message.action,
            client_action_id=message.id,
        )
        await self._send(
            {
                "type": "ack",
                "id": message.id,
                "version": outcome.version,
                "duplicate": outcome.duplicate,
            }
        )
        if outcome.duplicate:
            await self._snapshot()

    async def handle_sync(self, message: Sync) -> None:
        await self._snapshot()

    async def handle_ping(self, message: Ping) -> None:
        await self._send(
            {"type": "pong", "version": self.version, "server_time": timezone.now().isoformat()}
        )

    async def handle_leave(self, message: Leave) -> None:
        if self.seat is None:
            raise ServiceError(
                gettext("You are watching this table; there is no seat to leave."),
                code="not_seated",
            )
        outcome = await database_sync_to_async(play.match_leave)(
            table_id=self.table_id, player=self.player
        )
        await self._send(
            {"type": "ack", "id": None, "version": outcome.version, "duplicate": False}
        )

    async def handle_rematch(self, message: Rematch) -> None:
        if self.seat is None:
            raise ServiceError(
                gettext("Only the match’s players can ask for a rematch."), code="not_seated"
            )
        await database_sync_to_async(play.rematch_accept)(
            table_id=self.table_id, player=self.player, accept=message.accept
        )

    # --- Outbound --------------------------------------------------------------------------------

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A frame a service published to one of this socket's groups, already projected."""
        await self._send(event["frame"])

    async def _snapshot(self) -> None:
        frame = await database_sync_to_async(play.table_snapshot)(
            table_id=self.table_id, seat=self.seat
        )
        await self._send(frame)

    async def _send(self, frame: dict[str, Any]) -> None:
        if self.closing:
            return
        version = frame.get("version")
        if isinstance(version, int) and version > self.version:
            self.version = version
        await self.send(text_data=json.dumps(frame, separators=(",", ":")))

    async def _error(self, code: str, message: str, action_id: str | None = None) -> None:
        await self._send({"type": "error", "code": code, "message": message, "id": action_id})

    async def _bad(self, error: BadMessage) -> None:
        self.bad_messages += 1
        await self._error(error.code, str(error), error.id)
        if self.bad_messages >= settings.LIVE_MAX_BAD_MESSAGES:
            await self._error(
                "too_many_errors", gettext("Too many bad messages; this socket is closed.")
            )
            await self._close(CLOSE_POLICY)

    async def _close(self, code: int) -> None:
        self.closing = True
        if self.heartbeat is not None and self.heartbeat is not asyncio.current_task():
            self.heartbeat.cancel()
            self.heartbeat = None
        await self.close(code=code)
