"""The site's channel layer on Redis: channels-redis's ``RedisChannelLayer``, reading each
process's inbox with one Redis round trip per message instead of four, and sending to a group in
two round trips instead of four.

Every socket of a process shares one inbox on Redis, and the library reads it one message at a
time: a script that moves back messages an interrupted read left in a backup queue, the
blocking pop, a copy of the message into the backup queue, and, before the next read may start,
its removal from there. Under load that serial loop is the ceiling of every table frame
(``make bench``: the echo through one ``group_send`` ran 12× slower than the bare echo). Here a
read is the blocking pop alone. What the backup queue guarded against, a message popped by a
read that is cancelled before it returns (the socket closing at that moment), is then lost, as
any channel layer may lose a message; the table protocol recovers from a lost frame
(docs/protocol.md § Versions, loss and reconnects).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from channels_redis.core import RedisChannelLayer

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
