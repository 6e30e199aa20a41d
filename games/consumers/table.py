"""The table socket (``/ws/table/<id>/``): parse, call one service, send the receiver's view.

Everything the socket says is documented in ``docs/protocol.md``; every rule of play, presence
and time lives in ``games.services``. What lives here is the edge: who is asking (from the
session, never from the client), the guards (frame size, rate, garbage, session still valid),
and forwarding the frames the services published to this socket's groups. The message types
other apps serve here (social's chat and reports) reach them through
``GAMES_TABLE_SOCKET_HANDLERS`` (``games.hooks``), with the same guards. Every message is
handled in the language of the page that opened the socket, so each error reads in it.

The handshake is accepted before anything is read from the database, and all database work runs
in the socket pool (``core.pool.run_db``), so a storm of connections or one slow table never stalls
the process.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any

from django.db import OperationalError
from django.utils import timezone
from django.utils.translation import gettext
from redis.exceptions import RedisError

from accounts.sockets import CLOSE_SESSION_ENDED, PlayerSocketMixin
from core.errors import ServiceError
from core.outage import database_unavailable, is_connection_failure
from core.pool import run_db, run_db_unsent
from core.websocket import CLOSE_UNAVAILABLE, EventHandler, GuardedJsonConsumer

from .. import hooks, realtime
from ..messages import Act, BadMessage, Leave, Ping, Rematch, Suggest, Sync, decode
from ..services import bots, move_rows, moves, presence, rematch
from .heartbeat import heartbeat

logger = logging.getLogger(__name__)

CLOSE_NO_TABLE = 4004


class TableConsumer(PlayerSocketMixin, GuardedJsonConsumer):
    table_id: int
    seat: int | None = None
    version = 0
    state_version = 0  # the version of the last ``state`` this socket sent its client
    published_version = 0  # the version this socket's own last act made (0: a later one came)
    registered = False

    # --- Lifecycle -------------------------------------------------------------------------------

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        await self.accept()
        try:
            # Join the groups before the snapshot, so no frame published in between is missed;
            # a seated socket leaves the spectators' group once it knows its seat.
            await self.identify(also=self._table_groups)
        except OperationalError:  # not a lost connection (identify closes for that): a lock
            logger.warning("Socket for table %s could not read its session", self.table_id)
            await self.close_with(CLOSE_UNAVAILABLE)
            return
        await self.register()

    def _table_groups(self) -> list[str]:
        groups = [
            realtime.table_group(self.table_id),
            realtime.table_spectator_group(self.table_id),
        ]
        if self.player_id is not None:
            groups.append(realtime.table_player_group(self.table_id, self.player_id))
        return groups

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Whatever ends the socket (its close, an exception in a handler, the server cancelling
        it), its presence row goes with it: a row left behind would keep its player present,
        kept fresh by this process's heartbeat, and their absence bank would never drain."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.registered:
                await asyncio.shield(self._unregister())

    async def register(self) -> None:
        """Write this socket's presence row and send its first snapshot (again after a stall).

        The heartbeat knows the socket before its row exists: it removes the rows of its
        process that no live socket owns (``ServerHeartbeat``)."""
        beat = heartbeat()
        beat.add(self)
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
            await self.close_with(CLOSE_NO_TABLE)
            return
        except OperationalError as error:
            self._database_failed(error, "Socket for table %s could not register", self.table_id)
            await self.close_with(CLOSE_UNAVAILABLE)
            return
        self.registered = True
        await self._take(snapshot)
        for served in hooks.table_socket_handlers():
            if served.opened is not None:
                await served.opened(self)

    async def disconnect(self, code: int) -> None:
        await self._unregister()

    async def _unregister(self) -> None:
        heartbeat().discard(self)
        try:
            await self.leave_all()
        except RedisError:  # a storm of closes on a starved machine; the row below matters more
            logger.warning("Socket %s could not leave its groups", self.channel_name)
        if self.registered:
            self.registered = False
            try:
                await run_db(presence.socket_disconnect, channel_name=self.channel_name)
            except OperationalError as error:  # the heartbeat removes the row on its next beats
                self._database_failed(
                    error, "Socket %s left no trace of its close", self.channel_name
                )

    @staticmethod
    def _database_failed(error: OperationalError, warning: str, *args: Any) -> None:
        """A lost database is one line per outage (``core.outage``); anything else a warning."""
        if is_connection_failure(error):
            database_unavailable(error)
        else:
            logger.warning(warning, *args)

    async def end_session(self) -> None:
        await self.close_with(CLOSE_SESSION_ENDED)

    async def close_with(self, code: int) -> None:
        heartbeat().discard(self)
        await super().close_with(code)

    # --- Inbound ---------------------------------------------------------------------------------

    async def receive_message(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        served = hooks.table_socket_messages()
        action_id = None
        try:
            if isinstance(kind, str) and kind in served:
                await served[kind](self, content)  # decodes first, as ``decode`` does here
            else:
                message = decode(content, also=served)
                action_id = getattr(message, "id", None)
                await getattr(self, f"handle_{message.type}")(message)
        except BadMessage as error:
            await self.bad_message(str(error), code=error.code, action_id=error.id)
        except ServiceError as error:
            await self.send_error(error.code, str(error), action_id=action_id)
            if error.code == "stale":
                await self._snapshot()
            elif error.code == "session":
                await self.end_session()
        except OperationalError as error:  # a lock not had in time (DB_LOCK_TIMEOUT_MS), or none
            self._database_failed(error, "Table %s busy: %s refused", self.table_id, kind)
            await self.send_error(
                "busy", gettext("The table is busy; send that again in a moment."), action_id
            )

    async def require_session(self) -> None:
        """A player's message needs the session the socket opened with to be alive still."""
        if self.player_id is not None and not await self.session_valid():
            await self.end_session()
            raise ServiceError(gettext("Your session has ended; log in again."), code="session")

    async def handle_act(self, message: Act) -> None:
        if message.table is not None and message.table != self.table_id:
            raise ServiceError(gettext("This socket belongs to another table."), code="wrong_table")
        if self.seat is None:
            raise ServiceError(
                gettext("You are watching this table; only its players move."), code="not_seated"
            )
        await self.require_session()
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
        await self.send_frame(
            {
                "type": "ack",
                "id": message.id,
                "version": outcome.version,
                "duplicate": outcome.duplicate,
            }
        )
        await realtime.send_all(messages)
        self.published_version = outcome.version
        if outcome.duplicate:
            await self._snapshot()

    async def handle_sync(self, message: Sync) -> None:
        await self.answer_sync(self._sync_snapshot)

    async def _sync_snapshot(self) -> None:
        """Every ``sync`` is answered: by a fresh state, or, when the last state this socket sent
        is of the match's version now, by ``synced`` with that version: the state is with the
        client or on its way (the socket keeps its frames in order), and sending it again would
        cost a snapshot for nothing.

        Likewise when this socket's own act made the match's last version it knows of: that
        move's state is published to its group, sent or on its way (a client that syncs whenever
        the ack overtakes the state would otherwise cost a database read or a snapshot a move).
        Once only: should that state be lost, the next sync asks the database."""
        if self.published_version:
            version, self.published_version = self.published_version, 0
            await self.send_frame({"type": "synced", "version": version})
            return
        if self.state_version and self.state_version == await run_db(
            move_rows.match_version, self.table_id
        ):
            await self.send_frame({"type": "synced", "version": self.state_version})
            return
        await self._snapshot(replaceable=True)

    async def handle_ping(self, message: Ping) -> None:
        version = await run_db(move_rows.match_version, self.table_id)
        await self.send_frame(
            {"type": "pong", "version": version, "server_time": timezone.now().isoformat()}
        )

    async def handle_leave(self, message: Leave) -> None:
        if self.seat is None:
            raise ServiceError(
                gettext("You are watching this table; there is no seat to leave."),
                code="not_seated",
            )
        await self.require_session()
        outcome, messages = await run_db_unsent(
            moves.match_leave,
            table_id=self.table_id,
            player=self.player,
            session_key=self.session_key,
        )
        await self.send_frame(
            {"type": "ack", "id": None, "version": outcome.version, "duplicate": False}
        )
        await realtime.send_all(messages)

    async def handle_rematch(self, message: Rematch) -> None:
        if self.seat is None:
            raise ServiceError(
                gettext("Only the match’s players can ask for a rematch."), code="not_seated"
            )
        await self.require_session()
        await run_db(
            rematch.rematch_accept,
            table_id=self.table_id,
            player=self.player,
            accept=message.accept,
        )

    async def handle_suggest(self, message: Suggest) -> None:
        """The strong bot's choice for this seat's own view, to this socket only."""
        if self.seat is None:
            raise ServiceError(gettext("Only the match’s players can ask."), code="not_seated")
        await self.require_session()
        hint = await run_db(
            bots.hint_claim, player=self.player, table_id=self.table_id, version=message.version
        )
        # The search is pure CPU on the view: off the event loop and off the database threads.
        action = await asyncio.to_thread(bots.hint_choose, hint)
        await self.send_frame({"type": "suggestion", "version": hint.version, "action": action})

    # --- Outbound --------------------------------------------------------------------------------

    def event_handler(self, message: dict[str, Any]) -> EventHandler | None:
        """The socket's own handler of a channel-layer message, else the one another app serves
        for its type (``GAMES_TABLE_SOCKET_HANDLERS``: social's chat lines)."""
        own = super().event_handler(message)
        if own is not None:
            return own
        served = hooks.table_socket_events().get(message["type"])
        return None if served is None else partial(served, self)

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A frame a service published to one of this socket's groups, already projected and
        encoded (``realtime.frame_event``).

        A seat's view reaches only the sockets of the player holding that seat (their group), so
        it tells this socket its seat; a spectators' view is for a socket without a seat."""
        if event["kind"] == "state":
            if event["seat"] is not None:
                await self._become(event["seat"])
            elif self.seat is not None:
                return
        self._saw(event["version"])
        if event["kind"] == "state":
            self._sent_state(event["version"])
        await self.send_text(event["text"])
        if event["kind"] == "match_over":
            for served in hooks.table_socket_handlers():
                if served.match_over is not None:
                    await served.match_over(self)

    async def layer_restored(self, event: dict[str, Any]) -> None:
        if self.registered:
            await self._snapshot(replaceable=True)

    async def table_role(self, event: dict[str, Any]) -> None:
        """Who holds a seat changed: look this socket's role up again."""
        await self._snapshot()

    async def _snapshot(self, *, replaceable: bool = False) -> None:
        try:
            snapshot = await run_db(
                presence.table_snapshot, table_id=self.table_id, player=self.player
            )
        except ServiceError:
            await self.close_with(CLOSE_NO_TABLE)
            return
        await self._take(snapshot, replaceable=replaceable)

    async def _take(self, snapshot: presence.Snapshot, *, replaceable: bool = False) -> None:
        await self._become(snapshot.seat)
        await self.send_frame(snapshot.frame, replaceable=replaceable)

    async def _become(self, seat: int | None) -> None:
        self.seat = seat
        spectators = realtime.table_spectator_group(self.table_id)
        if seat is None:
            await self.join(spectators)
        else:
            await self.leave(spectators)

    async def send_frame(self, frame: dict[str, Any], *, replaceable: bool = False) -> None:
        """One frame to this socket's client (the other apps' handlers send through here too),
        its version noted."""
        self._saw(frame.get("version"))
        if frame["type"] == "state":
            self._sent_state(frame["version"])
        await self.send_json(frame, replaceable=replaceable)

    def _sent_state(self, version: int) -> None:
        self.state_version = version
        if version > self.published_version:  # a later move's: the own move is no longer news
            self.published_version = 0

    def _saw(self, version: Any) -> None:
        if isinstance(version, int) and version > self.version:
            self.version = version
