"""Issue 25, defect 2: presence follows the sockets that are really open. A socket whose consumer
ended without its ``disconnect`` (an exception in a handler) took its row with it; a row that no
live socket of its process owns is removed by that process's heartbeat. Through the real
consumer, database and channel layer; each test's docstring states its pass criterion."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.consumers.heartbeat import heartbeat
from games.consumers.table import TableConsumer
from games.models import Seat, TableConnection
from games.services import presence
from tests.support.live import Sock, cookie_headers, start_table

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def no_background_beat(settings):
    """The tests beat by hand."""
    settings.LIVE_HEARTBEAT_SECONDS = 3600


async def _seated(alice, bob):
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    socks = {}
    for player in (alice, bob):
        socks[player.name] = await Sock.open(table.pk, await sync_to_async(cookie_headers)(player))
    return table, socks


def _rows(table_id: int, player) -> int:
    return TableConnection.objects.filter(table_id=table_id, player=player).count()


def _connected(table_id: int, player) -> bool:
    return Seat.objects.get(table_id=table_id, player=player).connected


async def test_a_socket_whose_handler_raised_leaves_no_presence_row(
    alice, bob, monkeypatch, no_background_beat
):
    """Pass: bob's socket dies of an exception in a handler (a stand-in for any bug); its
    presence row is gone with it, bob's seat is no longer connected, and alice is told."""
    table, socks = await _seated(alice, bob)
    assert await sync_to_async(_rows)(table.pk, bob) == 1

    async def broken(self, message):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(TableConsumer, "handle_ping", broken)
    await socks["bob"].send({"type": "ping"})
    with pytest.raises(RuntimeError, match="a bug in a handler"):
        while True:  # the frames already on their way, then the consumer's end
            await socks["bob"].communicator.receive_output(timeout=10)

    assert await sync_to_async(_rows)(table.pk, bob) == 0
    assert not await sync_to_async(_connected)(table.pk, bob)
    frame = await socks["alice"].until(
        lambda f: f["type"] == "presence" and not f["seats"][socks["bob"].seat]["connected"]
    )
    assert frame["seats"][socks["alice"].seat]["connected"]
    await socks["alice"].close()


async def test_the_heartbeat_removes_a_row_no_live_socket_owns(alice, bob, no_background_beat):
    """Pass: a presence row of this process whose socket is gone (its close never reached the
    database) keeps bob connected until two beats of the process have found no socket owning
    it; then it is removed, bob's seat is absent, and alice's own row stays."""
    table, socks = await _seated(alice, bob)
    await socks["bob"].close()
    beat = heartbeat()
    await sync_to_async(presence.socket_connect)(
        table_id=table.pk,
        player=bob,
        channel_name="specific.gone!orphan",
        server_name=beat.name,
    )
    assert await sync_to_async(_connected)(table.pk, bob)

    await beat._beat(check_sessions=False)
    assert await sync_to_async(_rows)(table.pk, bob) == 1  # one beat may be a close under way
    await beat._beat(check_sessions=False)
    assert await sync_to_async(_rows)(table.pk, bob) == 0
    assert not await sync_to_async(_connected)(table.pk, bob)
    assert await sync_to_async(_rows)(table.pk, alice) == 1
    await socks["alice"].close()
