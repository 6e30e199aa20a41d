"""When the load bench's seats ask for a snapshot (``LiveTable.watch``): as docs/protocol.md
§ ack says, 2 s after a move's ``ack`` if its ``state`` has not come, never merely because the
``ack`` is slow (that set off a storm of snapshots under load), and after 10 s without any
answer."""

from __future__ import annotations

import asyncio

from bench.load.clients import LiveTable
from bench.load.data import Identity
from bench.load.sockets import Bench


def _watched_sync(*, acted_ago: float, acked_ago: float | None) -> bool:
    table = LiveTable(Bench(0, seed=1), 1, (Identity(1, ""), Identity(2, "")), closed_loop=False)
    mover = table.clients[0]
    asked: list[object] = []

    async def sync() -> None:
        asked.append(mover)

    mover.sync = sync  # type: ignore[method-assign]
    now = 100.0
    mover.awaiting = ("b1", now - acted_ago, {"type": "act"}, 1)
    mover.acted_at = now - acted_ago
    mover.acked_at = None if acked_ago is None else now - acked_ago
    asyncio.run(table.watch(now))
    return bool(asked)


def test_a_slow_ack_is_waited_for():
    assert not _watched_sync(acted_ago=5.0, acked_ago=None)


def test_a_state_missing_2_s_after_its_ack_is_asked_for():
    assert not _watched_sync(acted_ago=3.0, acked_ago=1.5)
    assert _watched_sync(acted_ago=3.0, acked_ago=2.5)


def test_an_act_unanswered_for_10_s_is_asked_for():
    assert _watched_sync(acted_ago=10.5, acked_ago=None)
