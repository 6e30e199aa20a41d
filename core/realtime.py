"""Publishing to websockets after commit (docs/architecture.md § The shape): a rolled-back change
sends nothing.

A service calls :func:`publish_on_commit`; what happens after the commit depends on who called
the service. A socket's database work runs through :func:`collecting` (``core.pool``), which
hands the messages back to the async side, so the socket sends them itself and no database
thread ever waits on the channel layer. Anyone else (a page request, a Celery task) sends them
at once, from its own thread.

Publishing never undoes or fails what committed: when the channel layer cannot take a message
(Redis restarting, the embedded layer's file locked), that is logged and the clients catch up
through their ``pong`` and ``sync`` (docs/protocol.md § Versions, loss and reconnects). The
site's Redis layer keeps a socket process's messages and sends them once Redis is back
(``core.layers``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import DatabaseError, transaction
from redis.exceptions import RedisError

Message = tuple[str, dict[str, Any]]  # (group, channel-layer message)
T = TypeVar("T")

logger = logging.getLogger(__name__)

_outbox = threading.local()

# What a channel layer raises when its transport fails, as opposed to a bug in a message.
LAYER_FAILURES = (OSError, RedisError, DatabaseError)
FAILURE_QUIET_SECONDS = 30.0  # a failure this long after the last one starts a new episode
_last_failure = 0.0


def publish_on_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (now if none)."""
    transaction.on_commit(lambda: _deliver(group, message))


def _deliver(group: str, message: dict[str, Any]) -> None:
    box: list[Message] | None = getattr(_outbox, "messages", None)
    if box is not None:
        box.append((group, message))
    else:
        send_now(group, message)


def collecting(function: Callable[..., T]) -> Callable[..., tuple[T, list[Message]]]:
    """Run ``function`` and return its result with the messages its commits published, unsent.

    For a socket's database thread: the async side sends them (:func:`send_all`)."""

    def run(*args: Any, **kwargs: Any) -> tuple[T, list[Message]]:
        outer = getattr(_outbox, "messages", None)  # a collector around this one keeps its own
        _outbox.messages = []
        try:
            result = function(*args, **kwargs)
            return result, _outbox.messages
        finally:
            if outer is None:
                del _outbox.messages
            else:
                _outbox.messages = outer

    return run


def send_now(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except LAYER_FAILURES as error:
        _layer_failed(error, dropped=1)


def send_batch(messages: list[Message]) -> None:
    """Send what :func:`collecting` gathered, from a thread with no event loop (a task): one
    trip to the channel layer for them all instead of one a message."""
    if messages:
        async_to_sync(send_all)(messages)


def _layer_failed(error: BaseException, *, dropped: int) -> None:
    """One line per episode of failures, not one (or a traceback) per message."""
    global _last_failure
    now = time.monotonic()
    if now - _last_failure > FAILURE_QUIET_SECONDS:
        logger.warning(
            "The channel layer is failing (%s): %s message(s) not published; the clients catch "
            "up with their next sync. Further failures in this episode are not logged.",
            str(error).splitlines()[0] if str(error) else type(error).__name__,
            dropped,
        )
    _last_failure = now


async def send_all(messages: list[Message]) -> None:
    """Send every message: the groups at once, each group's messages in their order."""
    if not messages:
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await _send_all(layer, messages)
    except LAYER_FAILURES as error:
        _layer_failed(error, dropped=len(messages))


async def _send_all(layer: Any, messages: list[Message]) -> None:
    send_many = getattr(layer, "group_send_many", None)
    if send_many is not None:  # the site's Redis layer: all of them in one round trip
        await send_many(messages)
        return
    by_group: dict[str, list[dict[str, Any]]] = {}
    for group, message in messages:
        by_group.setdefault(group, []).append(message)

    async def in_order(group: str, queue: list[dict[str, Any]]) -> None:
        for message in queue:
            await layer.group_send(group, message)

    await asyncio.gather(*(in_order(group, queue) for group, queue in by_group.items()))
