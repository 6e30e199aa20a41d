"""The table socket tells everyone at a rated table how the match moved ratings (the ``rating``
message, docs/protocol.md), through the real consumer, database and channel layer."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.models import Match
from ladder.models import RatingChange
from tests.support.ladder import open_table
from tests.support.live import Sock, cookie_headers, play_to_end
from tests.support.matches import every_seat_moves

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _sockets(table, players, watcher):
    socks = {}
    for player in players:
        sock = await Sock.open(table.pk, await sync_to_async(cookie_headers)(player))
        socks[sock.seat] = sock
    watching = await Sock.open(table.pk, await sync_to_async(cookie_headers)(watcher))
    return socks, watching


async def _rating_frame(sock: Sock) -> dict:
    """The ``rating`` message, whether it came while the last moves settled or comes now."""
    seen = [frame for frame in sock.frames if frame["type"] == "rating"]
    frame = seen[0] if seen else await sock.until(lambda f: f["type"] == "rating")
    await sock.drain()
    assert [f for f in sock.frames if f["type"] == "rating"] == [frame]  # once
    kinds = [f["type"] for f in sock.frames]
    assert kinds.index("match_over") < kinds.index("rating")  # it follows the end
    return frame


@pytest.mark.slow
async def test_a_whole_rated_match_ends_with_the_rating_change_on_every_socket(
    alice, bob, eve, fast_clients
):
    table = await sync_to_async(open_table)("japanese_whist", [alice, bob], points=5)
    socks, watcher = await _sockets(table, [alice, bob], eve)
    await play_to_end(table.pk, socks, [watcher], rng=random.Random(3))
    match = await sync_to_async(Match.objects.get)(table=table)
    changes = {
        c.seat: c for c in await sync_to_async(list)(RatingChange.objects.filter(match=match))
    }
    assert len(changes) == 2
    for sock in (*socks.values(), watcher):
        frame = await _rating_frame(sock)
        assert frame["match"] == match.pk
        assert [
            (c["seat"], c["before"], c["after"], c["delta"], c["provisional"])
            for c in frame["changes"]
        ] == [(seat, 1500, changes[seat].after, changes[seat].delta, True) for seat in (0, 1)]
        assert [c["name"] for c in frame["changes"]] == [
            ("alice" if changes[s].player_id == alice.pk else "bob") for s in (0, 1)
        ]
        winner = match.result["winners"][0]
        assert frame["changes"][winner]["delta"] > 0 > frame["changes"][1 - winner]["delta"]
    for sock in (*socks.values(), watcher):
        await sock.close()


async def test_leaving_a_casual_table_sends_no_rating_message(alice, bob, eve, fast_clients):
    table = await sync_to_async(open_table)("japanese_joker", [alice, bob], rated=False)
    socks, watcher = await _sockets(table, [alice, bob], eve)
    await sync_to_async(every_seat_moves)(table)  # begun: leaving is a forfeit, not an abort
    leaver = next(sock for sock in socks.values())
    await leaver.send({"type": "leave"})
    for sock in (*socks.values(), watcher):
        await sock.until(lambda f: f["type"] == "match_over")
        await sock.drain()
        assert not [f for f in sock.frames if f["type"] == "rating"]
    for sock in (*socks.values(), watcher):
        await sock.close()
