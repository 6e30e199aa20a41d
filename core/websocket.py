"""Plumbing shared by the site's JSON websockets: the page's language and the guards every
socket applies to what a client sends (docs/protocol.md § Limits, § Close codes)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from functools import cached_property
from importlib import import_module
from typing import Any

from asgiref.typing import WebSocketConnectEvent, WebSocketDisconnectEvent
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import Error as DatabaseError
from django.http import parse_cookie
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation.trans_real import parse_accept_lang_header

from . import jsontext, outage, transport

logger = logging.getLogger(__name__)

# Daphne (autobahn) lets an application close only with 1000 or 3000-4999, so the policy codes
# of RFC 6455 are sent as 4000 + the RFC code (docs/protocol.md § Close codes).
CLOSE_POLICY = 4008  # flood, too many bad messages (RFC 1008)
CLOSE_TOO_BIG = 4009  # frame over LIVE_MAX_MESSAGE_BYTES (RFC 1009)
CLOSE_UNAVAILABLE = 4011  # the database cannot be reached (RFC 1011, which Daphne refuses)

EventHandler = Callable[[dict[str, Any]], Awaitable[None]]  # of one channel-layer message


def frame_text(content: dict[str, Any]) -> str:
    """A frame as the sockets put it on the wire: compact JSON."""
    return jsontext.dumps(content)


def scope_language(scope: dict[str, Any]) -> str:
    """The page's language for a socket: the language cookie, else the browser's preference."""
    supported = {code for code, _name in settings.LANGUAGES}
    chosen = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if chosen in supported:
        return chosen
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        base = code.split("-")[0].lower()
        if base in supported:
            return base
    return settings.LANGUAGE_CODE


def _expiry_keeping(store: type[Any]) -> type[Any]:
    """The database session store, keeping the expiry of the row it loads (``loaded_expiry``):
    a socket needs it as it opens, and read apart it was one more query in every connect. Other
    engines are left as they are (no ``loaded_expiry``: the socket reads it)."""
    if not hasattr(store, "_get_session_from_db"):
        return store

    class ExpiryKeepingStore(store):
        loaded_expiry = None

        def _get_session_from_db(self) -> Any:
            row = super()._get_session_from_db()
            if row is not None:
                self.loaded_expiry = row.expire_date
            return row

    # The session's data is signed with a salt named after the store's class: the same name,
    # or no session would read as the one the site wrote.
    ExpiryKeepingStore.__qualname__ = store.__qualname__
    return ExpiryKeepingStore


class SocketSessionMiddleware:
    """The socket's cookies and its session in the scope, with one copy of the scope.

    The session is not read here: the store loads on first use, which the consumers make in
    the database pool. Channels' ``SessionMiddlewareStack`` does the same with three copies of
    the scope and a wrapper around every frame sent, there to save the session of an HTTP
    response; a socket never writes its session. Kept for each open socket, that was ~2 KB of
    memory and a coroutine on every frame (make bench)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.store = _expiry_keeping(import_module(settings.SESSION_ENGINE).SessionStore)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        cookies: dict[str, str] = {}
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                cookies = parse_cookie(value.decode("latin1"))
                break
        session = self.store(cookies.get(settings.SESSION_COOKIE_NAME))
        return await self.inner(dict(scope, cookies=cookies, session=session), receive, send)


class PageLanguageMixin:
    """Every event of a socket (connect, a frame, a published frame) is handled in the language
    of the page that opened it, so whatever it writes reads in that language. Translation is
    context-local: each socket runs in a task of its own, so the language is activated once, in
    that task's context, at its first event; the database pool takes it along to its thread
    (``core.pool.run_db``)."""

    scope: Any  # the consumer's ASGI scope
    language_active = False

    @cached_property
    def language(self) -> str:
        return scope_language(self.scope)

    def event_handler(self, message: dict[str, Any]) -> EventHandler | None:
        """What handles a channel-layer message: the method Channels names after its type
        (``table.frame``: ``table_frame``). A socket that serves other apps' types adds them."""
        handler: EventHandler | None = getattr(self, get_handler_name(message), None)
        return handler

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without the ``close_old_connections`` it runs first on Django's
        one shared sync thread for every event: these sockets never touch the database on the
        event loop, their work runs in ``core.pool``, which closes stale connections around
        each call. The hop queued every frame of a process behind that thread."""
        handler = self.event_handler(message)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if not self.language_active:
            translation.activate(self.language)
            self.language_active = True
        await handler(message)


class TokenBucket:
    """The per-connection rate limit: ``burst`` messages at once, then ``rate`` per second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class GuardedJsonConsumer(PageLanguageMixin, AsyncWebsocketConsumer):
    """A JSON socket that no frame can break: too big, too fast, binary, not JSON, nested past
    the parser's depth or not an object, each gets an ``error`` (and, past the limits, a close
    with the documented code) instead of an exception. Subclasses get each JSON object in
    ``receive_message`` and answer what they do not understand with ``bad_message``."""

    closing = False
    sync_due = 0.0  # the loop's time before which a ``sync`` is not answered again
    sync_later: asyncio.Task[None] | None = None

    async def websocket_connect(self, message: WebSocketConnectEvent) -> None:
        self.bucket = TokenBucket(settings.LIVE_RATE_PER_SECOND, settings.LIVE_RATE_BURST)
        self.bad_messages = 0
        await super().websocket_connect(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > settings.LIVE_MAX_MESSAGE_BYTES:
            await self.send_error(
                "too_big",
                ngettext(
                    "A frame may be at most %(bytes)s byte.",
                    "A frame may be at most %(bytes)s bytes.",
                    settings.LIVE_MAX_MESSAGE_BYTES,
                )
                % {"bytes": settings.LIVE_MAX_MESSAGE_BYTES},
            )
            await self.close_with(CLOSE_TOO_BIG)
            return
        if not self.bucket.take():
            await self.send_error("flood", gettext("Too many messages; this socket is closed."))
            await self.close_with(CLOSE_POLICY)
            return
        if text_data is None:
            await self.bad_message(gettext("Send JSON text frames."), code="bad_json")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.bad_message(gettext("The frame is not valid JSON."), code="bad_json")
            return
        if not isinstance(content, dict):
            await self.bad_message(
                gettext("A message is a JSON object with a 'type'."), code="bad_json"
            )
            return
        try:
            await self.receive_message(content)
        except DatabaseError as error:
            if not outage.is_connection_failure(error):
                raise
            outage.database_unavailable(error)  # one line per outage, not a traceback a frame
            await self.send_error(
                "busy",
                gettext("The server cannot reach its database; send that again in a moment."),
            )

    async def receive_message(self, content: dict[str, Any]) -> None:
        raise NotImplementedError

    async def answer_sync(self, snapshot: Callable[[], Awaitable[None]]) -> None:
        """Answer ``sync`` with ``snapshot()``, at most once every ``LIVE_SYNC_SECONDS``: the
        syncs that come sooner are all answered by one snapshot when the interval ends. A
        client that follows the protocol's backoff never waits for it; one that sends ``sync``
        as fast as the rate limit allows costs the server one snapshot a second, not ten."""
        loop = asyncio.get_running_loop()
        wait = self.sync_due - loop.time()
        if wait <= 0:
            self.sync_due = loop.time() + settings.LIVE_SYNC_SECONDS
            await snapshot()
        elif self.sync_later is None or self.sync_later.done():
            self.sync_later = loop.create_task(self._answer_sync_later(wait, snapshot))

    async def _answer_sync_later(
        self, wait: float, snapshot: Callable[[], Awaitable[None]]
    ) -> None:
        await asyncio.sleep(wait)
        if self.closing:
            return
        self.sync_due = asyncio.get_running_loop().time() + settings.LIVE_SYNC_SECONDS
        try:
            await snapshot()
        except Exception:  # the socket's own handlers would have answered it; none waits here
            logger.warning("A delayed sync snapshot failed", exc_info=True)

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        if self.sync_later is not None:
            self.sync_later.cancel()
        await super().websocket_disconnect(message)

    async def layer_restored(self, event: dict[str, Any]) -> None:
        """The channel layer is back after an outage (``core.layer_outage.RESTORED``): a socket that
        shows live state sends it again, since what was published meanwhile may be lost."""

    async def send_json(self, content: dict[str, Any], *, replaceable: bool = False) -> None:
        await self.send_text(frame_text(content), replaceable=replaceable)

    async def send_text(self, text: str, *, replaceable: bool = False) -> None:
        """Send a frame already encoded as JSON text. A ``replaceable`` frame (a snapshot that
        answers ``sync``) is left out while the last one is still waiting for the client
        (``core.transport``)."""
        if self.closing:
            return
        message: Any = {"type": "websocket.send", "text": text}  # an ASGI event with our key
        if replaceable:
            message[transport.REPLACEABLE] = True
        try:
            await self.base_send(message)
        except Disconnected:  # the client left while we were answering; its disconnect follows
            self.closing = True

    async def send_error(self, code: str, message: str, action_id: str | None = None) -> None:
        """``id`` names the client's action the error is about, or is null."""
        await self.send_json({"type": "error", "code": code, "message": message, "id": action_id})

    async def bad_message(
        self, message: str, *, code: str = "bad_message", action_id: str | None = None
    ) -> None:
        """Answer a frame the socket cannot use; too many of them close it (a broken client)."""
        self.bad_messages += 1
        await self.send_error(code, message, action_id)
        if self.bad_messages >= settings.LIVE_MAX_BAD_MESSAGES:
            await self.send_error(
                "too_many_errors", gettext("Too many bad messages; this socket is closed.")
            )
            await self.close_with(CLOSE_POLICY)

    async def close_with(self, code: int) -> None:
        if self.closing:
            return
        self.closing = True
        await self.close(code=code)


class NotFoundConsumer(AsyncWebsocketConsumer):
    """Any websocket path without a route: the handshake is refused (HTTP 403, as for a foreign
    origin) instead of failing with a server error."""

    async def connect(self) -> None:
        await self.close()


class GroupsMixin:
    """The channel-layer groups a socket joined, so that it leaves them all when it closes."""

    channel_layer: Any
    channel_name: str

    @cached_property
    def groups_joined(self) -> set[str]:
        return set()

    async def join(self, *groups: str) -> None:
        """Join the groups not joined yet, in one trip to the layer where it can (the site's
        Redis layer: ``group_add_many``)."""
        new = [group for group in dict.fromkeys(groups) if group not in self.groups_joined]
        if not new:
            return
        self.groups_joined.update(new)
        add_many = getattr(self.channel_layer, "group_add_many", None)
        if add_many is not None:
            await add_many(new, self.channel_name)
            return
        for group in new:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave(self, group: str) -> None:
        if group in self.groups_joined:
            self.groups_joined.discard(group)
            await self.channel_layer.group_discard(group, self.channel_name)

    async def leave_all(self) -> None:
        groups = list(self.groups_joined)
        self.groups_joined.clear()
        discard_many = getattr(self.channel_layer, "group_discard_many", None)
        if discard_many is not None:
            await discard_many(groups, self.channel_name)
            return
        for group in groups:
            await self.channel_layer.group_discard(group, self.channel_name)
