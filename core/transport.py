"""What a websocket may have waiting for its client, and how a client shows it still reads
(docs/protocol.md § Limits, § Close codes).

Daphne hands every frame to Twisted, which keeps whatever the kernel would not take yet, without
limit: a client that sends but never reads grew its server by megabytes a minute and slowed every
other table. And Daphne counts any frame a client sends as a sign of life, so such a client was
never pinged, and never closed. Daphne has no setting for either, so its websocket protocol is
replaced (the Twisted factory's ``protocol``, when ``config.asgi`` loads) by one that:

- caps the kernel's send buffer of the connection at ``KERNEL_SEND_BUFFER_BYTES`` (Linux grows
  it to 4 MB by itself, per socket, for a client that does not read);
- before each frame looks at what the transport still holds for the client beyond that, and
  past ``LIVE_SEND_BUFFER_BYTES`` closes the socket with ``CLOSE_SLOW_READER`` (the close
  handshake gets a second; then the connection is dropped and its buffer with it);
- leaves out a frame the application marked ``replaceable`` (a snapshot answering ``sync``)
  while the last such frame has not left yet: the client will read that one first, and it has
  nothing to gain from two;
- pings every client every ``ping_interval``, whatever it sends, so one that does not read (and
  so never answers the ping) is closed after ``ping_timeout``.
"""

from __future__ import annotations

import logging
import socket
from typing import Any

from autobahn.websocket import protocol as autobahn_protocol
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from django.conf import settings

logger = logging.getLogger(__name__)

# Set with SO_SNDBUF, which the kernel doubles: 128 KB in flight a socket, 640 KB/s to a client
# 200 ms away, far above what a table sends (a state is a few KB).
KERNEL_SEND_BUFFER_BYTES = 64 * 1024
CLOSE_SLOW_READER = 4013  # RFC 6455's 1013, "try again later", as 4000 + the code
# An ASGI ``websocket.send`` key of this site: the frame may be left out while the previous
# frame so marked is still waiting for the client (other servers ignore the key).
REPLACEABLE = "replaceable"


def queued_bytes(transport: Any) -> int:
    """What a Twisted TCP transport holds that the kernel has not taken yet (its write buffer:
    ``dataBuffer`` past ``offset``, and the writes not yet joined to it). Zero for a transport
    that keeps no such buffer."""
    buffer = getattr(transport, "dataBuffer", b"")
    return (
        len(buffer) - getattr(transport, "offset", 0) + int(getattr(transport, "_tempDataLen", 0))
    )


class BoundedWebSocketProtocol(WebSocketProtocol):
    """Daphne's websocket protocol with the bound, the replaceable frames and the pings."""

    last_ping: float  # Daphne's: when the client last showed it is alive
    handed_bytes = 0  # every byte handed to the transport, framing included
    replaceable_end = -1  # handed_bytes just after the last replaceable frame

    def connectionMade(self) -> None:
        handle = self.transport.getHandle() if hasattr(self.transport, "getHandle") else None
        if isinstance(handle, socket.socket):
            handle.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, KERNEL_SEND_BUFFER_BYTES)
        super().connectionMade()

    def onOpen(self) -> None:
        # autobahn too takes any frame received as the answer to its ping by default.
        self.autoPingRestartOnAnyTraffic = False
        super().onOpen()

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        """A frame received proves the client sends, not that it reads: only a pong keeps the
        ping away (the base class counted any frame)."""
        last_ping = self.last_ping
        super().onMessage(payload, isBinary)
        self.last_ping = last_ping

    def handle_reply(self, message: dict[str, Any]) -> None:
        if message.get("type") != "websocket.send":
            super().handle_reply(message)
        elif not message.get(REPLACEABLE):
            self._hand_over(message)
        elif not self._replaceable_waiting():
            self._hand_over(message)
            self.replaceable_end = self.handed_bytes

    def _replaceable_waiting(self) -> bool:
        """The last replaceable frame still has bytes in the transport: what is queued reaches
        back past everything handed over after it."""
        if self.replaceable_end < 0:
            return False
        return queued_bytes(self.transport) > self.handed_bytes - self.replaceable_end

    def _hand_over(self, message: dict[str, Any]) -> None:
        before = queued_bytes(self.transport)
        super().handle_reply(message)
        queued = queued_bytes(self.transport)
        self.handed_bytes += max(0, queued - before)  # Twisted writes only from the reactor
        limit = settings.LIVE_SEND_BUFFER_BYTES
        if queued > limit and self.state == self.STATE_OPEN:
            logger.warning(
                "Closing a socket of %s: %s bytes waited for it unread, over %s.",
                self.client_addr,
                queued,
                limit,
            )
            self.sendClose(code=CLOSE_SLOW_READER)


def install() -> None:
    """Make Daphne's websocket factory build the bounded protocol.

    And autobahn's debug lines get the plain ``repr`` of what they show: every connection
    pretty-printed its ~30 options for a debug line, logged or not (about 0.25 ms, 6 % of a
    table socket's connect in a storm of connections: make bench, py-spy)."""
    WebSocketFactory.protocol = BoundedWebSocketProtocol
    autobahn_protocol.pformat = repr  # type: ignore[assignment]
