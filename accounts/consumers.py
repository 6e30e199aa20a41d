"""A small websocket that proves the stack end to end: origin, session, auth and channel layer."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from core.websocket import GuardedJsonConsumer

from .sockets import CLOSE_SESSION_ENDED, PlayerSocketMixin


def _plain_text(value: object, longest: int) -> bool:
    """Text the channel layer can carry: JSON lets a client send a lone surrogate ("\\ud83d"),
    which no UTF-8 encoder (msgpack's on the Redis layer) accepts."""
    if not isinstance(value, str) or len(value) > longest:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class PingConsumer(PlayerSocketMixin, GuardedJsonConsumer):
    """Answers ``{"type": "ping"}`` with a pong that travelled through the channel layer."""

    async def connect(self) -> None:
        await self.accept()  # nothing is read before the handshake is accepted
        await self.identify()
        self.player_name = self.player.name if self.player else None

    async def disconnect(self, code: int) -> None:
        await self.leave_all()

    async def end_session(self) -> None:
        await self.close_with(CLOSE_SESSION_ENDED)

    async def receive_message(self, content: dict[str, Any]) -> None:
        if content.get("type") != "ping":
            await self.bad_message(gettext("Send %(ping)s.") % {"ping": '{"type": "ping"}'})
            return
        payload = content.get("payload")
        if payload is not None and not _plain_text(payload, 200):
            await self.bad_message(
                gettext("The payload must be text of at most 200 characters."), code="bad_payload"
            )
            return
        # Round trip through the layer (Redis in production) rather than answering directly.
        await self.channel_layer.send(self.channel_name, {"type": "pong.relay", "payload": payload})

    async def pong_relay(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "pong", "payload": event.get("payload"), "player": self.player_name}
        )
