"""The site's channel layer on Redis: channels-redis's ``RedisChannelLayer``, with the socket
side rebuilt for a process that holds thousands of sockets (``make bench`` measured each part).

Reading. Every socket of a process shares one inbox on Redis. The library reads it one message
at a time in four round trips (a script restoring a backup queue, the blocking pop, a copy into
the backup queue, its removal), and keeps, for every waiting socket, an ``asyncio.Queue`` and two
tasks. Here one reader task per process pops up to ``READ_BATCH`` messages in one blocking
``BZMPOP`` while any socket waits, and hands each to its socket's future; a message that arrives
while a socket is busy with the previous one waits in a deque made only then, and a message for a
socket that closed is dropped, where the library kept a queue for it forever. What the backup
queue guarded against, a message popped by a read cancelled before it returns, is then lost, as
any channel layer may lose a message; the table protocol recovers from a lost frame
(docs/protocol.md § Versions, loss and reconnects).

Sending to groups. The library takes four round trips for each group (drop expired members,
read them, then per inbox drop expired messages and add one). A move publishes to two or three
groups. Here :meth:`RedisLayer.group_send_many` sends all of them in one script: the messages
travel together as one batch, added once to each inbox that has a member of any of the groups,
and the reader gives each message to the process's own members of its group. The sending process
keeps its own members too (every group it joined, it joined here), so for them the batch never
goes to Redis: they have it at once. A batch keeps its messages in their order.

When Redis fails (a restart, a network cut) nothing here raises into a socket: what could not
be sent waits and goes once Redis answers, and the process's members are added back
(``core/layer_outage.py``).

What this needs: one Redis host (the script reads keys it is not given, which a cluster would
refuse), and group members that are sockets' channels (``new_channel``: ``name!local``), which
every consumer's channel is.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Iterable
from typing import Any

from channels_redis.core import RedisChannelLayer
from django.core.exceptions import ImproperlyConfigured

from .layer_outage import REDIS_FAILURES, RETRY_SECONDS, OutageRepair

logger = logging.getLogger(__name__)

READ_BATCH = 100  # messages popped from the inbox in one read

BATCH = "__batch__"  # a message of group messages: [[group, message], ...]

# The members of the groups (expired ones dropped) by their process's inbox, then the batch into
# each of those inboxes but the sender's (expired messages dropped, unless the inbox is full).
# KEYS: the groups. ARGV: the batch, now, group expiry, expiry, capacity, prefix, and the
# sender's mark in its channels' names ('.client!', or '' to send to the sender's inbox too).
_SEND_BATCH = """
local batch, now = ARGV[1], tonumber(ARGV[2])
local group_expiry, expiry = tonumber(ARGV[3]), tonumber(ARGV[4])
local capacity, prefix, sender = tonumber(ARGV[5]), ARGV[6], ARGV[7]
local inboxes, seen = {}, {}
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, now - group_expiry)
    for _, member in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
        local bang = string.find(member, '!', 1, true)
        if bang then
            local inbox = prefix .. string.sub(member, 1, bang)
            local own = sender ~= '' and string.find(inbox, sender, 1, true)
            if not own and not seen[inbox] then
                seen[inbox] = true
                inboxes[#inboxes + 1] = inbox
            end
        end
    end
end
local full = 0
for _, inbox in ipairs(inboxes) do
    redis.call('ZREMRANGEBYSCORE', inbox, 0, now - expiry)
    if redis.call('ZCARD', inbox) < capacity then
        redis.call('ZADD', inbox, now, batch)
        redis.call('EXPIRE', inbox, expiry)
    else
        full = full + 1
    end
end
return full
"""


# One channel into each group (KEYS), each group's expiry renewed. ARGV: now, the channel, the
# group expiry. One command: redis-py's pipeline of the same writes cost twice the client's CPU.
_ADD_MEMBER = """
for i = 1, #KEYS do
    redis.call('ZADD', KEYS[i], ARGV[1], ARGV[2])
    redis.call('EXPIRE', KEYS[i], ARGV[3])
end
return 0
"""


class RedisLayer(OutageRepair, RedisChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.ring_size != 1:
            raise ImproperlyConfigured("core.layers.RedisLayer sends through one Redis host.")
        self._reset_local()

    def _reset_local(self) -> None:
        self._live: set[str] = set()  # a socket's channel, from its creation to its close
        self._members: dict[str, set[str]] = {}  # group -> this process's channels in it
        self._groups_of: dict[str, set[str]] = {}  # channel -> its groups
        self._reader_loop: asyncio.AbstractEventLoop | None = None
        self._run_id: str | None = None  # the Redis server the members were added to
        self._forget_waiting()

    def _forget_waiting(self) -> None:
        """What belongs to one event loop: the waiting futures, what waits for them, the reader,
        and what waits for Redis during an outage with the task that repairs it."""
        self._waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._pending: dict[str, deque[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        # (time, group keys, payload, sender mark) of each batch Redis has not taken yet
        self._unsent: deque[tuple[float, list[str], bytes, str]] = deque()
        self._members_lost = False  # Redis may have lost the members: add them all again
        self._outage = False  # between the first failure and the first success after it
        self._repair: asyncio.Task[None] | None = None

    async def new_channel(self, prefix: str = "specific") -> str:
        channel = await super().new_channel(prefix)
        self._live.add(channel)
        return channel

    # --- Groups ---------------------------------------------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        await self.group_add_many([group], channel)

    async def group_add_many(self, groups: Iterable[str], channel: str) -> None:
        """The members remembered here, then all of the library's writes in one round trip (a
        socket joins three or four groups as it opens). When Redis fails the socket stays: it
        is added once Redis answers."""
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        keys = []
        for group in groups:
            assert self.require_valid_group_name(group), "Group name not valid"
            self._members.setdefault(group, set()).add(channel)
            self._groups_of.setdefault(channel, set()).add(group)
            keys.append(self._group_key(group))
        if not keys:
            return
        try:
            await self.connection(0).eval(
                _ADD_MEMBER, len(keys), *keys, time.time(), channel, int(self.group_expiry)
            )
        except REDIS_FAILURES as error:
            self._redis_failed(error)

    async def _add_members(self, members: Iterable[tuple[str, str]]) -> None:
        now = time.time()
        keys: dict[str, dict[str, float]] = {}
        for group, channel in members:
            keys.setdefault(self._group_key(group), {})[channel] = now
        if not keys:
            return
        async with self.connection(0).pipeline(transaction=False) as pipe:
            for key, channels in keys.items():
                pipe.zadd(key, channels)
                pipe.expire(key, self.group_expiry)
            await pipe.execute()

    async def group_discard(self, group: str, channel: str) -> None:
        await self.group_discard_many([group], channel)

    async def group_discard_many(self, groups: Iterable[str], channel: str) -> None:
        """Forgotten here at once, then removed on Redis in one round trip; if Redis cannot be
        told now, the member expires there (a message for it is dropped by the reader)."""
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        keys = []
        for group in groups:
            assert self.require_valid_group_name(group), "Group name not valid"
            self._forget_member(group, channel)
            keys.append(self._group_key(group))
        if not keys:
            return
        try:
            async with self.connection(0).pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zrem(key, channel)
                await pipe.execute()
        except REDIS_FAILURES as error:
            self._redis_failed(error)

    def _forget_member(self, group: str, channel: str) -> None:
        members = self._members.get(group)
        if members is not None:
            members.discard(channel)
            if not members:
                del self._members[group]
        groups = self._groups_of.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del self._groups_of[channel]

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_many([(group, message)])

    async def group_send_many(self, messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
        """Send each message to its group, in one round trip; the process's own members have
        theirs at once. In a process's socket loop this never fails: what Redis cannot take
        now waits for it, in order. Elsewhere (a task, a page) a Redis failure raises."""
        batch = [[group, message] for group, message in messages]
        if not batch:
            return
        for group, _message in batch:
            assert self.require_valid_group_name(group), "Group name not valid"
        keys = list(dict.fromkeys(self._group_key(group) for group, _message in batch))
        payload = self.serialize({BATCH: batch})
        local = asyncio.get_running_loop() is self._reader_loop
        if not local:
            await self._send_batch(keys, payload, "")
            return
        self._hand_over_batch(self.deserialize(payload)[BATCH])
        sender = f".{self.client_prefix}!"
        if self._unsent:  # behind what is already waiting, to keep the order
            self._keep_unsent(keys, payload, sender)
            self._repair_soon()
            return
        try:
            await self._send_batch(keys, payload, sender)
        except REDIS_FAILURES as error:
            self._keep_unsent(keys, payload, sender)
            self._redis_failed(error)

    async def _send_batch(self, keys: list[str], payload: bytes, sender: str) -> None:
        full = await self.connection(0).eval(
            _SEND_BATCH,
            len(keys),
            *keys,
            payload,
            time.time(),
            int(self.group_expiry),
            int(self.expiry),
            self.capacity,
            self.prefix,
            sender,
        )
        if full:
            logger.info("%s inboxes over capacity: a batch to %s dropped", full, keys[0])

    # --- Receiving ------------------------------------------------------------------------------

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
            for group in list(self._groups_of.get(channel, ())):
                self._forget_member(group, channel)
            raise

    async def _read_inbox(self, inbox: str) -> None:
        """Pop the process's inbox while any socket waits on it, and hand each message over."""
        key = self.prefix + inbox
        try:
            while self._waiters:
                try:
                    popped = await self.connection(0).bzmpop(
                        self.brpop_timeout, 1, [key], min=True, count=READ_BATCH
                    )
                except REDIS_FAILURES as error:
                    # Redis is restarting or unreachable: the sockets stay open, the members
                    # are added back once it answers, and the clients catch up with a sync.
                    self._redis_failed(error)
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                if popped:
                    for content, _score in popped[1]:
                        self._hand_over_message(self.deserialize(content))
        finally:
            if self._reader is asyncio.current_task():
                self._reader = None

    def _hand_over_message(self, message: dict[str, Any]) -> None:
        batch = message.get(BATCH)
        if batch is not None:
            self._hand_over_batch(batch)
            return
        target = message.pop("__asgi_channel__", [])
        for channel in target if isinstance(target, list) else [target]:
            self._hand_over(channel, message)

    def _hand_over_batch(self, batch: list[list[Any]]) -> None:
        for group, message in batch:
            for channel in self._members.get(group, ()):
                self._hand_over(channel, message)

    def _hand_over(self, channel: str, message: dict[str, Any]) -> None:
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
        if self._repair is not None and not self._repair.done():
            self._repair.cancel()
        for future in self._waiters.values():
            future.cancel()
        self._reset_local()
