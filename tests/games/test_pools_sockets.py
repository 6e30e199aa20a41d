"""Quick play through the real sockets and channel layer (issue 28 § 2): "Play now" over the
lobby socket, the "paired" message to each player's lobby, the match starting when both have
opened the table, the counts every lobby hears, and a refusal that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.cache import cache

from config.asgi import application
from games.models import Match, PoolTicket
from games.services import pools
from tests.support.live import ORIGIN, Sock, cookie_headers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]

POOL = "japanese_joker/fast/0/rated"


async def _lobby(player, headers=None) -> WebsocketCommunicator:
    headers = headers or await sync_to_async(cookie_headers)(player)
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def _until(communicator: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message = await communicator.receive_json_from(timeout=10)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind}")


async def test_two_players_press_play_now_are_sent_to_one_table_and_it_starts(alice, bob):
    lobbies = {"alice": await _lobby(alice), "bob": await _lobby(bob)}
    snapshot = await _until(lobbies["alice"], "lobby")
    assert snapshot["pool_ticket"] is None and snapshot["ratings"]["japanese_joker"] > 0
    await lobbies["alice"].send_json_to({"type": "pool_join", "pools": [POOL]})
    ticket = (await _until(lobbies["alice"], "pool_ticket"))["ticket"]
    assert ticket["pools"] == [POOL] and ticket["table"] is None
    await lobbies["bob"].send_json_to(
        {"type": "pool_join", "pools": [POOL, "japanese_whist/fast/0/rated"]}
    )
    paired = {name: await _until(lobby, "paired") for name, lobby in lobbies.items()}
    assert paired["alice"]["url"] == paired["bob"]["url"]
    table_id = paired["alice"]["table"]
    # The table waits for both: the first to arrive sees it open, the second starts it.
    first = await Sock.open(table_id, await sync_to_async(cookie_headers)(alice))
    assert first.state["status"] == "open"
    second = await Sock.open(table_id, await sync_to_async(cookie_headers)(bob))
    for sock in (first, second):
        state = await sock.until(lambda f: f["type"] == "state" and f["status"] == "playing")
        assert state["clocks"]["speed"] == "fast"
    match = await sync_to_async(Match.objects.get)(table_id=table_id)
    assert match.status == Match.Status.PLAYING
    assert not await sync_to_async(PoolTicket.objects.exists)()
    # Every lobby hears the counts when the pass next runs (not said in the last few seconds).
    await sync_to_async(cache.delete_many)([pools.COUNTS_KEY, pools.COUNTS_PAUSE_KEY])
    await sync_to_async(pools.pools_sweep)()
    counts = (await _until(lobbies["alice"], "pools"))["counts"]
    assert counts[POOL] == {"waiting": 0, "playing": 2}
    for sock in (first, second):
        await sock.communicator.disconnect()
    for lobby in lobbies.values():
        await lobby.disconnect()


async def test_a_refused_join_is_an_error_in_words_and_leaving_says_so(guest_client, guest):
    cookie = (
        f"{settings.SESSION_COOKIE_NAME}={guest_client.cookies[settings.SESSION_COOKIE_NAME].value}"
    )
    lobby = await _lobby(guest, [*ORIGIN, (b"cookie", cookie.encode())])
    await _until(lobby, "lobby")
    await lobby.send_json_to({"type": "pool_join", "pools": [POOL]})
    error = await _until(lobby, "error")
    assert error["code"] == "guest_pool" and "Sign up" in error["message"]
    await lobby.send_json_to({"type": "pool_join", "pools": "everything"})
    assert (await _until(lobby, "error"))["code"] == "bad_pool"
    assert not await sync_to_async(PoolTicket.objects.exists)()
    await lobby.send_json_to(
        {"type": "pool_join", "pools": ["japanese_joker/normal/0/casual"], "fill_after": 10}
    )
    assert (await _until(lobby, "pool_ticket"))["ticket"]["fill_after_seconds"] == 10
    await lobby.send_json_to({"type": "pool_leave"})
    assert (await _until(lobby, "pool_ticket"))["ticket"] is None
    assert not await sync_to_async(PoolTicket.objects.exists)()
    await lobby.disconnect()
    visitor = await _lobby(None)
    await _until(visitor, "lobby")
    await visitor.send_json_to({"type": "pool_join", "pools": [POOL]})
    assert (await _until(visitor, "error"))["code"] == "no_player"
    await visitor.disconnect()


async def test_a_second_lobby_tab_hears_what_the_first_joined_and_left(alice):
    first, second = await _lobby(alice), await _lobby(alice)
    for lobby in (first, second):
        await _until(lobby, "lobby")
    await first.send_json_to({"type": "pool_join", "pools": ["japanese_joker/normal/0/casual"]})
    answer = (await _until(first, "pool_ticket"))["ticket"]
    told = (await _until(second, "pool_ticket_changed"))["ticket"]
    assert told == answer and told["pools"] == ["japanese_joker/normal/0/casual"]
    assert (await _until(first, "pool_ticket_changed"))["ticket"] == answer  # every tab hears
    await second.send_json_to({"type": "pool_leave"})
    assert (await _until(second, "pool_ticket"))["ticket"] is None
    assert (await _until(first, "pool_ticket_changed"))["ticket"] is None
    for lobby in (first, second):
        await lobby.disconnect()
