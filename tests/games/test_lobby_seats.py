"""The lobby by number of players (issue 30): classic Joker's tables may have 2, 3 or 4 seats, the
other games' 2; the page, its "Show older tables" link and the lobby socket filter by it, and a
table's removal names its seats so that a filtered page can count it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.models import Table
from games.services import tables
from games.services.bots import seat_computer_add
from tests.support.live import ORIGIN
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


def open_table(creator, game: str = "classic_joker", **options) -> Table:
    return tables.table_create(
        creator=creator, game=game, options=options, stake=0, visibility="public", password=""
    )


def test_a_classic_table_has_the_seats_its_option_chose_and_fills_them(alice, bob):
    three = open_table(alice, seats=3)
    assert three.seats_total == 3 and three.options["seats"] == 3
    tables.table_join(player=bob, table_id=three.pk)
    seat = seat_computer_add(player=alice, table_id=three.pk, strength="easy")
    assert seat.position == 2  # the last seat: the match starts with three
    three.refresh_from_db()
    assert three.status == Table.Status.PLAYING
    match = three.match
    assert match.state["options"]["seats"] == 3 and len(match.state["hands"]) == 3


def test_the_lobby_page_filters_by_seats_and_keeps_it_on_the_next_link(alice, bob, carol, settings):
    settings.LOBBY_PAGE_SIZE = 1
    older = open_table(alice, seats=2)
    open_table(bob, seats=3)
    newer = open_table(carol, game="japanese_joker")
    client = client_for(alice)
    first = client.get("/?seats=2")
    assert [t["id"] for t in first.context["tables"]] == [newer.pk]
    assert first.context["table_count"] == 2  # a two-seat classic table and Japanese Joker
    assert "seats=2" in first.context["more_query"]
    second = client.get(f"/?{first.context['more_query']}")
    assert [t["id"] for t in second.context["tables"]] == [older.pk]
    assert [t["seats_total"] for t in client.get("/?seats=3").context["tables"]] == [3]
    assert client.get("/?seats=4").context["tables"] == []
    assert client.get("/?seats=5").context["table_count"] == 3  # a bad filter is ignored
    assert client.get("/?seats=two").context["table_count"] == 3
    html = client.get("/").content.decode()
    assert '<option value="3">3 players</option>' in html


async def _lobby(path: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await socket.connect()
    assert connected
    return socket


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_filters_by_seats_and_a_removal_names_them(alice, bob, carol):
    await sync_to_async(open_table)(alice, seats=2)
    three = await sync_to_async(open_table)(bob, seats=3)
    socket = await _lobby("/ws/lobby/?seats=3")
    snapshot = await socket.receive_json_from(timeout=10)
    assert [t["id"] for t in snapshot["tables"]] == [three.pk] and snapshot["count"] == 1
    await sync_to_async(tables.table_cancel)(player=bob, table_id=three.pk)
    for _ in range(10):
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == "table_removed" and message["id"] == three.pk:
            break
    assert message["seats"] == 3
    await socket.disconnect()
