"""Player entropy through the real sockets and channel layer (issue 31 § 2): the waiting room's
lobby socket is asked to reveal when the table fills and its reveal starts the match; at a
quick-play table the table socket commits, is asked and reveals; bad values are refused in
words and start nothing."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.models import Match, Table
from games.services import pools, tables
from tests.games.test_pools_sockets import _lobby, _until
from tests.support.live import Sock, cookie_headers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]


def share() -> tuple[str, str]:
    value = secrets.token_hex(32)
    return value, hashlib.sha256(value.encode()).hexdigest()


def started(table_id: int) -> dict[str, Any] | None:
    match = Match.objects.filter(table_id=table_id).first()
    return None if match is None else match.entropy


async def test_the_waiting_room_reveals_over_the_lobby_socket_and_the_match_starts(alice, bob):
    (a_value, a_commit), (b_value, b_commit) = share(), share()
    table = await sync_to_async(tables.table_create)(
        creator=alice,
        game="japanese_joker",
        options={},
        stake=0,
        visibility="public",
        entropy_commitment=a_commit,
    )
    lobbies = {"alice": await _lobby(alice), "bob": await _lobby(bob)}
    await sync_to_async(tables.table_join)(
        player=bob, table_id=table.pk, entropy_commitment=b_commit
    )
    asked = {name: await _until(lobby, "reveal") for name, lobby in lobbies.items()}
    assert asked["alice"]["commitment"] == a_commit and asked["bob"]["commitment"] == b_commit
    assert asked["alice"]["server_commitment"] == asked["bob"]["server_commitment"]
    assert asked["alice"]["table"] == table.pk and await sync_to_async(started)(table.pk) is None

    await lobbies["alice"].send_json_to({"type": "entropy_reveal", "table": table.pk, "value": 7})
    refused = await _until(lobbies["alice"], "error")
    assert refused["code"] == "bad_entropy" and refused["message"]
    await lobbies["alice"].send_json_to({"type": "entropy_reveal", "table": "x", "value": a_value})
    assert (await _until(lobbies["alice"], "error"))["code"] == "bad_message"
    for name, value in (("alice", a_value), ("bob", b_value)):
        await lobbies[name].send_json_to(
            {"type": "entropy_reveal", "table": table.pk, "value": value}
        )
        assert (await _until(lobbies[name], "entropy_revealed"))["table"] == table.pk
    await _until(lobbies["bob"], "match_started")
    entropy = await sync_to_async(started)(table.pk)
    assert [seat["source"] for seat in entropy["seats"]] == ["player", "player"]
    assert (
        hashlib.sha256(entropy["server_secret"].encode()).hexdigest()
        == (asked["alice"]["server_commitment"])
    )
    for lobby in lobbies.values():
        await lobby.disconnect()


async def test_a_quick_play_table_socket_commits_is_asked_and_reveals(alice, bob):
    pool = "japanese_joker/normal/0/casual"
    for player in (alice, bob):
        await sync_to_async(pools.pool_join)(player=player, pool_ids=[pool])
    [table_id] = await sync_to_async(pools.pool_pair)(pools.pool_named(pool))
    value, commitment = share()
    first = await Sock.open(table_id, await sync_to_async(cookie_headers)(alice))
    assert first.state["status"] == "open"
    await first.send({"type": "entropy_commit", "commitment": commitment.upper()})
    assert (await first.until(lambda f: f["type"] == "error"))["code"] == "bad_entropy"
    await first.send({"type": "entropy_commit", "commitment": commitment})
    await first.until(lambda f: f["type"] == "entropy_committed")
    second = await Sock.open(table_id, await sync_to_async(cookie_headers)(bob))
    asked = await first.until(lambda f: f["type"] == "reveal")
    assert asked["commitment"] == commitment
    table = await sync_to_async(Table.objects.get)(pk=table_id)
    assert table.status == Table.Status.OPEN  # waiting for alice's value
    await second.send({"type": "entropy_reveal", "value": value})  # bob committed nothing
    assert (await second.until(lambda f: f["type"] == "error"))["code"] == "entropy_unasked"
    await first.send({"type": "entropy_reveal", "value": value})
    for sock in (first, second):
        await sock.until(lambda f: f["type"] == "state" and f["status"] == "playing")
    entropy = await sync_to_async(started)(table_id)
    sources = {seat["commitment"]: seat["source"] for seat in entropy["seats"]}
    assert sources == {commitment: "player", None: "server"}
    for sock in (first, second):
        await sock.communicator.disconnect()
