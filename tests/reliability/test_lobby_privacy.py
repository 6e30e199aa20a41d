"""Item 9: a friends-only table's events reach only the players allowed to see it.

Hidden tables are projected out at the source: public and password tables go to the lobby
group, a friends-only table's events only to the groups of its creator, the creator's friends,
the invited and the seated. The lobby consumer relays and never filters.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections

from accounts import services as account_services
from games.services import invitations, tables
from tests.support.players import make_player

from .conftest import open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _befriend(first, second) -> None:
    request = account_services.friend_request_send(sender=first, username=second.name)
    account_services.friend_request_accept(player=second, request_id=request.pk)


async def _lobby_of(player):
    socket = await open_socket("/ws/lobby/", await sync_to_async(session_cookie)(player))
    assert (await socket.receive_json_from(timeout=5))["type"] == "lobby"
    return socket


async def _until_table(socket, table_id: int, kind: str) -> list[dict]:
    """Every frame up to and including the ``kind`` event about ``table_id``."""
    frames = []
    while True:
        frame = await socket.receive_json_from(timeout=5)
        frames.append(frame)
        about = frame["table"]["id"] if frame["type"] == "table" else frame.get("id")
        if frame["type"] == kind and about == table_id:
            return frames


async def test_a_strangers_lobby_hears_nothing_of_a_friends_only_table():
    """Pass: while alice's friends-only table opens, fills, starts and a second one is
    cancelled, carol (no friend of alice) receives nothing about either before the public
    table that dave opens after them; bob (alice's friend) hears each of them."""
    alice, bob, carol, dave = [
        await sync_to_async(make_player)(name) for name in ("alice", "bob", "carol", "dave")
    ]
    await sync_to_async(_befriend)(alice, bob)
    carol_socket, bob_socket = await _lobby_of(carol), await _lobby_of(bob)

    hidden = await sync_to_async(tables.table_create)(
        creator=alice, game="japanese_joker", options={}, stake=0, visibility="friends"
    )
    await sync_to_async(tables.table_join)(player=bob, table_id=hidden.pk)  # starts the match
    second = await sync_to_async(tables.table_create)(
        creator=dave, game="japanese_joker", options={}, stake=0, visibility="friends"
    )
    await sync_to_async(tables.table_cancel)(player=dave, table_id=second.pk)
    sentinel = await sync_to_async(tables.table_create)(
        creator=carol, game="japanese_joker", options={}, stake=0, visibility="public"
    )

    heard = await _until_table(carol_socket, sentinel.pk, "table")
    assert heard == [heard[-1]], heard  # the public table is the first thing carol hears

    bob_heard = await _until_table(bob_socket, hidden.pk, "table_removed")
    assert any(f["type"] == "table" and f["table"]["id"] == hidden.pk for f in bob_heard)
    await carol_socket.disconnect()
    await bob_socket.disconnect()


async def test_the_invited_and_the_seated_hear_the_table_a_stranger_does_not():
    """Pass: bob opens a friends-only table and invites his friend carol, who is no friend of
    the creator's later successor; when bob leaves, alice (seated, creator now) and carol
    (invited) each hear the change, dave (a stranger) hears only the public sentinel."""
    alice, bob, carol, dave = [
        await sync_to_async(make_player)(name) for name in ("alice", "bob", "carol", "dave")
    ]
    await sync_to_async(_befriend)(bob, alice)
    await sync_to_async(_befriend)(bob, carol)
    table = await sync_to_async(tables.table_create)(
        creator=bob, game="classic_joker", options={}, stake=0, visibility="friends"
    )
    await sync_to_async(tables.table_join)(player=alice, table_id=table.pk)
    await sync_to_async(invitations.table_invite)(
        inviter=bob, table_id=table.pk, friend_id=carol.pk
    )
    sockets = {p.name: await _lobby_of(p) for p in (alice, carol, dave)}

    await sync_to_async(tables.table_leave)(player=bob, table_id=table.pk)
    sentinel = await sync_to_async(tables.table_create)(
        creator=dave, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    for name in ("alice", "carol"):
        heard = await _until_table(sockets[name], table.pk, "table")
        assert heard[-1]["table"]["players"] == ["alice"], name
    assert (await _until_table(sockets["dave"], sentinel.pk, "table"))[0]["table"]["id"] == (
        sentinel.pk
    )
    for socket in sockets.values():
        await socket.disconnect()
