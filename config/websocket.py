"""Plumbing shared by the site's JSON websockets."""

from __future__ import annotations

import time
from functools import cached_property
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
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


class PageLanguageMixin:
    """Every event of a socket (connect, a frame, a published frame) is handled in the language
    of the page that opened it, so whatever it writes reads in that language. Translation is
    context-local, and the database threads the handlers call inherit the context."""

    scope: dict[str, Any]

    @cached_property
    def language(self) -> str:
        return scope_language(self.scope)

    async def dispatch(self, message: dict[str, Any]) -> None:
        with translation.override(self.language):
            await super().dispatch(message)  # type: ignore[misc]


class LenientJsonConsumer(AsyncJsonWebsocketConsumer):
    """A frame that is not JSON reaches ``receive_json`` as None, to be answered with an error,
    instead of raising and closing the socket."""

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None


class TokenBucket:
    """A socket's rate limit: ``burst`` messages at once, then ``rate`` per second."""

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
