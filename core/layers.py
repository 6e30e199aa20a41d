"""The site's channel layer on Redis: channels-redis's ``RedisChannelLayer``, reading each
process's inbox with one Redis round trip per message instead of four.

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

from typing import Any

from channels_redis.core import RedisChannelLayer


class RedisLayer(RedisChannelLayer):
    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> Any:
        result = await self.connection(index).bzpopmin(channel, timeout=timeout)
        return None if result is None else result[1]

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        """Nothing was copied to a backup queue."""
