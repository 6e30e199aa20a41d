"""The bench's ceiling: bare echo sockets served by the same Daphne and channel layer as the
table socket, routed only when the settings say ``BENCH_ECHO`` (``config/settings/bench.py``).

``/ws/bench/echo/`` sends each text frame straight back; ``/ws/bench/group/`` sends it back
through one ``group_send`` to a group holding only this socket, the hop every table frame takes.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


class GroupEchoConsumer(AsyncWebsocketConsumer):
    group = ""

    async def connect(self) -> None:
        await self.accept()
        self.group = f"bench.echo.{self.channel_name.rsplit('!', 1)[-1]}"
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.frame", "text": text_data})

    async def echo_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def layer_restored(self, event: dict[str, Any]) -> None:
        """Redis came back after an outage (core.layers): an echo has no state to resend."""


def echo_routes() -> list[Any]:
    echo: Any = EchoConsumer.as_asgi()  # an ASGI app where Django's stubs expect a view
    group: Any = GroupEchoConsumer.as_asgi()
    return [path("ws/bench/echo/", echo), path("ws/bench/group/", group)]
