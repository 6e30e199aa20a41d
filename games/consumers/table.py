"""The table socket (``/ws/table/<id>/``): parse, call one service, send the receiver's view.

Everything the socket says is documented in ``docs/protocol.md``; every rule of play, presence
and time lives in ``games.services``. What lives here is the edge: who is asking (from the
session, never from the client), the guards (frame size, rate, garbage, session still valid),
and forwarding the frames the services published to this socket's groups. Every message is
handled in the language of the page that opened the socket, so each error reads in it.

The handshake is accepted before anything is read from the database, and all database work runs
in the socket pool (``pool.run_db``), so a storm of connections or one slow table never stalls
the process.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone
from django.utils.translation import gettext

from accounts.errors import ServiceError
from accounts.models import Player
from accounts.sockets import player_from_session, session_expiry, sockets_group
from config.websocket import PageLanguageMixin, TokenBucket

from .. import realtime
from ..messages import Act, BadMessage, Leave, Message, Ping, Rematch, Sync, parse
from ..models import Match
from ..services import moves, presence, rematch
from .pool import heartbeat, run_db, run_db_unsent

logger = logging.getLogger(__name__)

# Daphne (autobahn) lets an application close only with 1000 or 3000-4999, so the policy codes
# of RFC 6455 are sent as 4000 + the RFC code (docs/protocol.md § Close codes).
CLOSE_POLICY = 4008  # flood, too many bad messages (RFC 1008)
CLOSE_TOO_BIG = 4009  # frame over LIVE_MAX_MESSAGE_BYTES (RFC 1009)
CLOSE_SESSION_ENDED = 4003
CLOSE_NO_TABLE = 4004


def _identify(session: Any) -> tuple[Player | None, datetime | None]:
    player = player_from_session(session)
    key = getattr(session, "session_key", None)
    return player, session_expiry(key) if player is not None else None


def _match_version(table_id: int) -> int:
    return Match.objects.filter(table_id=table_id).values_list("version", flat=True).first() or 0


class TableConsumer(PageLanguageMixin, AsyncWebsocketConsumer):
    table_id: int
    player: Player | None = None
    player_id: int | None = None
    session_key: str | None = None
    session_expires: datetime | None = None
    seat: int | None = None
    version = 0
    registered = False
    closing = False

    # --- Lifecycle -------------------------------------------------------------------------------

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.groups_joined: set[str] = set()
        self.bucket = TokenBucket(settings.LIVE_RATE_PER_SECOND, settings.LIVE_RATE_BURST)
        self.bad_messages = 0
        await self.accept()
        session = self.scope.get("session")
        try:
            self.player, self.session_expires = await run_db(_identify, session)
        except OperationalError:
            logger.warning("Socket for table %s could not read its session", self.table_id)
            await self._close(1011)
            return
        if self.player is not None:
            self.player_id = self.player.pk
            self.session_key = getattr(session, "session_key", None)
        # Join the groups before the snapshot, so no frame published in between is missed; a
        # seated socket leaves the spectators' group once it knows its seat.
        await self._join(realtime.table_group(self.table_id))
        await self._join(realtime.table_spectator_group(self.table_id))
        if self.player_id is not None:
            await self._join(sockets_group(self.player_id))
            await self._join(realtime.table_player_group(self.table_id, self.player_id))
        await self.register()

    async def register(self) -> None:
        """Write this socket's presence row and send its first snapshot (again after a stall)."""
        beat = heartbeat()
        try:
            snapshot = await run_db(
                presence.socket_connect,
                table_id=self.table_id,
                player=self.player,
                channel_name=self.channel_name,
                server_name=beat.name,
            )
        except ServiceError:
            # Accept, then close with a code the page can read (a refused handshake says nothing).
            await self._close(CLOSE_NO_TABLE)
            return
        except OperationalError:
            logger.warning("Socket for table %s could not register", self.table_id)
            await self._close(1011)
            return
        self.registered = True
        beat.add(self)
        await self._take(snapshot)

    async def disconnect(self, code: int) -> None:
        heartbeat().discard(self)
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.registered:
            try:
                await run_db(presence.socket_disconnect, channel_name=self.channel_name)
            except OperationalError:  # the sweep removes the row with the server's heartbeat
                logger.warning("Socket %s left no trace of its close", self.channel_name)

    async def end_session(self) -> None:
        await self._close(CLOSE_SESSION_ENDED)

    async def _join(self, group: str) -> None:
        if group not in self.groups_joined:
            self.groups_joined.add(group)
            await self.channel_layer.group_add(group, self.channel_name)

    async def _leave(self, group: str) -> None:
        if group in self.groups_joined:
            self.groups_joined.discard(group)
            await self.channel_layer.group_discard(group, self.channel_name)

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
            elif error.code == "session":
                await self.end_session()
        except OperationalError:  # a lock that did not come in time (LIVE_LOCK_TIMEOUT)
            logger.warning("Table %s busy: %s refused", self.table_id, message.type)
            await self._error(
                "busy",
                gettext("The table is busy; send that again in a moment."),
                getattr(message, "id", None),
            )

    async def _session_valid(self) -> bool:
        """Checked on every move without the database, until the cached expiry has passed."""
        if self.session_expires is None or timezone.now() < self.session_expires:
            return True
        self.session_expires = await run_db(session_expiry, self.session_key)
        return self.session_expires is not None and timezone.now() < self.session_expires

    async def _require_seat(self) -> None:
        if self.player_id is not None and not await self._session_valid():
            await self.end_session()
            raise ServiceError(gettext("Your session has ended; log in again."), code="session")

    async def handle_act(self, message: Act) -> None:
        if message.table is not None and message.table != self.table_id:
            raise ServiceError(gettext("This socket belongs to another table."), code="wrong_table")
        if self.seat is None:
            raise ServiceError(
                gettext("You are watching this table; only its players move."), code="not_seated"
            )
        await self._require_seat()
        outcome, messages = await run_db_unsent(
            moves.match_act,
            table_id=self.table_id,
            player=self.player,
            version=message.version,
            action=message.action,
            client_action_id=message.id,
            session_key=self.session_key,
        )
        # The mover hears its ack first, then every socket its state.
        await self._send(
            {
                "type": "ack",
                "id": message.id,
                "version": outcome.version,
                "duplicate": outcome.duplicate,
            }
        )
        await realtime.send_all(messages)
        if outcome.duplicate:
            await self._snapshot()

    async def handle_sync(self, message: Sync) -> None:
        await self._snapshot()

    async def handle_ping(self, message: Ping) -> None:
        version = await run_db(_match_version, self.table_id)
        await self._send(
            {"type": "pong", "version": version, "server_time": timezone.now().isoformat()}
        )

    async def handle_leave(self, message: Leave) -> None:
        if self.seat is None:
            raise ServiceError(
                gettext("You are watching this table; there is no seat to leave."),
                code="not_seated",
            )
        await self._require_seat()
        outcome, messages = await run_db_unsent(
            moves.match_leave,
            table_id=self.table_id,
            player=self.player,
            session_key=self.session_key,
        )
        await self._send(
            {"type": "ack", "id": None, "version": outcome.version, "duplicate": False}
        )
        await realtime.send_all(messages)

    async def handle_rematch(self, message: Rematch) -> None:
        if self.seat is None:
            raise ServiceError(
                gettext("Only the match’s players can ask for a rematch."), code="not_seated"
            )
        await self._require_seat()
        await run_db(
            rematch.rematch_accept,
            table_id=self.table_id,
            player=self.player,
            accept=message.accept,
        )

    # --- Outbound --------------------------------------------------------------------------------

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A frame a service published to one of this socket's groups, already projected.

        A seat's view reaches only the sockets of the player holding that seat (their group), so
        it tells this socket its seat; a spectators' view is for a socket without a seat."""
        frame = event["frame"]
        if frame.get("type") == "state":
            if frame["seat"] is not None:
                await self._become(frame["seat"])
            elif self.seat is not None:
                return
        await self._send(frame)

    async def table_role(self, event: dict[str, Any]) -> None:
        """Who holds a seat changed: look this socket's role up again."""
        await self._snapshot()

    async def session_ended(self, event: dict[str, Any]) -> None:
        key = event.get("session_key")
        if key is None or key == self.session_key:
            await self.end_session()

    async def _snapshot(self) -> None:
        try:
            snapshot = await run_db(
                presence.table_snapshot, table_id=self.table_id, player=self.player
            )
        except ServiceError:
            await self._close(CLOSE_NO_TABLE)
            return
        await self._take(snapshot)

    async def _take(self, snapshot: presence.Snapshot) -> None:
        await self._become(snapshot.seat)
        await self._send(snapshot.frame)

    async def _become(self, seat: int | None) -> None:
        self.seat = seat
        spectators = realtime.table_spectator_group(self.table_id)
        if seat is None:
            await self._join(spectators)
        else:
            await self._leave(spectators)

    async def _send(self, frame: dict[str, Any]) -> None:
        if self.closing:
            return
        version = frame.get("version")
        if isinstance(version, int) and version > self.version:
            self.version = version
        try:
            await self.send(text_data=json.dumps(frame, separators=(",", ":")))
        except Disconnected:  # the client left while we were sending; its disconnect follows
            self.closing = True

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
        if self.closing:
            return
        self.closing = True
        heartbeat().discard(self)
        await self.close(code=code)
