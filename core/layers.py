"""The site's channel layer on Redis: channels-redis's ``RedisChannelLayer``, reading each
process's inbox with one Redis round trip per message instead of four, handing each message to
its socket without a task, and sending to a group in two round trips instead of four.

Every socket of a process shares one inbox on Redis, and the library reads it one message at a
time: a script that moves back messages an interrupted read left in a backup queue, the
blocking pop, a copy of the message into the backup queue, and, before the next read may start,
its removal from there. Under load that serial loop is the ceiling of every table frame
(``make bench``: the echo through one ``group_send`` ran 12× slower than the bare echo). Here a
read is the blocking pop alone. What the backup queue guarded against, a message popped by a
read that is cancelled before it returns (the socket closing at that moment), is then lost, as
any channel layer may lose a message; the table protocol recovers from a lost frame
(docs/protocol.md § Versions, loss and reconnects).

The library also keeps, for every socket waiting on the layer, an ``asyncio.Queue`` and two
tasks (one waiting on the queue, one on the lock of the shared read), and makes two new tasks for
every message it hands over. With thousands of idle sockets that was ~5 KB of each socket's
memory, and on every frame the work of creating, waiting on and cancelling tasks. Here one
reader per process pops the inbox while any socket waits, and a waiting socket holds one future;
messages that arrive while a socket is busy with the previous one wait in a deque made only
then. A message for a socket whose receive has ended (it closed) is dropped, where the library
kept a queue for it forever.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# For each inbox: drop its expired messages, then add the message unless the inbox is full.
# KEYS: the inboxes; ARGV: a message per inbox, a capacity per inbox, now, the expiry.
_SEND_TO_INBOXES = """
local count = #KEYS
local now = tonumber(ARGV[2 * count + 1])
local expiry = tonumber(ARGV[2 * count + 2])
local full = 0
for i = 1, count do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, now - expiry)
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[count + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""


class RedisLayer(RedisChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reset_local()

    def _reset_local(self) -> None:
        self._live: set[str] = set()  # a socket's channel, from its creation to its close
        self._reader_loop: asyncio.AbstractEventLoop | None = None
        self._forget_waiting()

    def _forget_waiting(self) -> None:
        """What belongs to one event loop: the waiting futures, what waits for them, the reader."""
        self._waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._pending: dict[str, deque[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def new_channel(self, prefix: str = "specific") -> str:
        channel = await super().new_channel(prefix)
        self._live.add(channel)
        return channel

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message of ``channel``; for a process-local channel (a socket's), from the
        process's one reader."""
        if "!" not in channel:
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        loop = asyncio.get_running_loop()
        if self._reader_loop is not loop:
            if self._reader_loop is not None:  # its loop is gone (tests run one per test)
                self._forget_waiting()
            self._reader_loop = loop
        self._live.add(channel)
        waiting = self._pending.get(channel)
        if waiting:
            message = waiting.popleft()
            if not waiting:
                del self._pending[channel]
            return message
        if channel in self._waiters:
            raise RuntimeError(f"Two receives wait on channel {channel} at once")
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._waiters[channel] = future
        if self._reader is None:
            self._reader = loop.create_task(self._read_inbox(self.non_local_name(channel)))
        try:
            return await future
        except asyncio.CancelledError:
            # The socket is closing. Anything still on its way to it is of no use any more.
            if self._waiters.get(channel) is future:
                del self._waiters[channel]
            self._live.discard(channel)
            self._pending.pop(channel, None)
            raise

    async def _read_inbox(self, inbox: str) -> None:
        """Pop the process's inbox while any socket waits on it, and hand each message over."""
        index = self.consistent_hash(inbox)
        key = self.prefix + inbox
        try:
            while self._waiters:
                try:
                    content = await self._brpop_with_clean(index, key, timeout=self.brpop_timeout)
                except (OSError, RedisError) as error:
                    # Redis is restarting or unreachable: the sockets stay open and catch up
                    # with a sync once frames flow again (docs/protocol.md § Versions).
                    logger.warning("Reading the inbox %s failed (%s); retrying", inbox, error)
                    await asyncio.sleep(1.0)
                    continue
                if content is not None:
                    self._hand_over(self.deserialize(content))
        finally:
            if self._reader is asyncio.current_task():
                self._reader = None

    def _hand_over(self, message: dict[str, Any]) -> None:
        target = message.pop("__asgi_channel__", [])
        for channel in target if isinstance(target, list) else [target]:
            future = self._waiters.pop(channel, None)
            if future is not None and not future.done():
                future.set_result(message)
            elif channel in self._live:  # busy with its previous message
                self._pending.setdefault(channel, deque(maxlen=self.capacity)).append(message)

    async def close_pools(self) -> None:
        """Also the end of the reader (``flush`` ends here too)."""
        self._stop_reader()
        await super().close_pools()

    def _stop_reader(self) -> None:
        if self._reader is not None and not self._reader.done():
            self._reader.cancel()
        for future in self._waiters.values():
            future.cancel()
        self._reset_local()

    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> Any:
        result = await self.connection(index).bzpopmin(channel, timeout=timeout)
        return None if result is None else result[1]

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        """Nothing was copied to a backup queue."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """The members (expired ones dropped) in one round trip, then one script per Redis
        host that cleans each inbox and adds the message, as the library's four steps do."""
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        async with connection.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
            pipe.zrange(key, 0, -1)
            _dropped, members = await pipe.execute()
        by_host, messages, capacities = self._map_channel_keys_to_connection(
            [member.decode("utf8") for member in members], message
        )
        for index, inboxes in by_host.items():
            full = await self.connection(index).eval(
                _SEND_TO_INBOXES,
                len(inboxes),
                *inboxes,
                *(messages[inbox] for inbox in inboxes),
                *(capacities[inbox] for inbox in inboxes),
                time.time(),
                int(self.expiry),
            )
            if full:
                logger.info("%s of %s inboxes over capacity in group %s", full, len(inboxes), group)
