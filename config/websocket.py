"""Plumbing shared by the site's JSON websockets."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class LenientJsonConsumer(AsyncJsonWebsocketConsumer):
    """A frame that is not JSON reaches ``receive_json`` as None, to be answered with an error,
    instead of raising and closing the socket."""

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None
