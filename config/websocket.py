"""Plumbing shared by the site's JSON websockets."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils.translation.trans_real import parse_accept_lang_header


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


class LenientJsonConsumer(AsyncJsonWebsocketConsumer):
    """A frame that is not JSON reaches ``receive_json`` as None, to be answered with an error,
    instead of raising and closing the socket."""

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None
