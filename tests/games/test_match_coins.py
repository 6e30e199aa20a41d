"""The end-of-match screen's coins (issue 12 § 2): the final ``state`` and ``match_over`` frames
tell every socket the table's stake and what each seat won or lost, through the real consumer."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async

from accounts.models import CoinAccount
from games.models import Match
from games.services import matches
from tests.support.live import (
    Sock,
    cookie_headers,
    start_table,
)
from tests.support.matches import every_seat_moves

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]


async def _socks(table, players):
    socks = {}
    for player in players:
        sock = await Sock.open(table.pk, await sync_to_async(cookie_headers)(player))
        socks[sock.seat] = sock
    return socks


def _balance(player):
    return CoinAccount.objects.get(player=player).balance


async def test_a_forfeit_for_coins_tells_each_seat_what_it_won_or_lost(alice, bob):
    table = await sync_to_async(start_table)(
        "japanese_joker", [alice, bob], options={"points": 11}, stake=25
    )
    socks = await _socks(table, [alice, bob])
    assert socks[0].state["stake"] == 25 and socks[0].state["result"] is None
    await sync_to_async(every_seat_moves)(table)  # before that, leaving aborts (§ 0.6)
    leaver = 0 if socks[0].state["seats"][0]["name"] == "alice" else 1
    await socks[leaver].send({"type": "leave"})
    for sock in socks.values():
        over = await sock.until(lambda f: f["type"] == "match_over")
        expected = [-25, 25] if leaver == 0 else [25, -25]
        assert over["result"]["coins"] == expected
        if sock.state["status"] != "finished":  # the final state may come after match_over
            await sock.until(lambda f: f["type"] == "state" and f["status"] == "finished")
        assert sock.state["result"]["coins"] == expected
        assert sock.state["stake"] == 25  # what a rematch would stake
    winner = bob if leaver == 0 else alice
    assert await sync_to_async(_balance)(winner) == 1000 + 25  # the frame says what was paid
    for sock in socks.values():
        await sock.close()


async def test_a_free_table_has_no_coins_and_a_cancel_gives_every_stake_back(alice, bob):
    free = await sync_to_async(start_table)("japanese_joker", [alice, bob], stake=0)
    socks = await _socks(free, [alice, bob])
    await socks[0].send({"type": "leave"})
    over = await socks[1].until(lambda f: f["type"] == "match_over")
    assert "coins" not in over["result"] and socks[1].state["stake"] == 0
    for sock in socks.values():
        await sock.close()

    staked = await sync_to_async(start_table)("japanese_joker", [alice, bob], stake=100)
    socks = await _socks(staked, [alice, bob])
    match = await sync_to_async(Match.objects.get)(table=staked)
    assert await sync_to_async(matches.match_cancel)(match_id=match.pk)
    over = await socks[0].until(lambda f: f["type"] == "match_over")
    assert over["result"]["coins"] == [0, 0]
    for sock in socks.values():
        await sock.close()
