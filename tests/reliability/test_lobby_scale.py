"""Item 2: the live lobby stays usable at 1,000 open tables.

Anyone can open tables, so their number is the attacker's to choose. The lobby sends the newest
``LOBBY_PAGE_SIZE`` tables of the socket's filter with the count of all of them, older ones on
request, and per-table events after the snapshot; Daphne's own frame limit no longer caps what
the server sends, and the consumers enforce the inbound limit themselves.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
import websockets
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from django.conf import settings
from django.test import Client

from games.services import tables
from tests.support.pages import shown
from tests.support.players import make_player

from .conftest import many_open_tables, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_snapshot_at_1000_open_tables_is_the_newest_page_with_the_count():
    """Pass: with 1,000 open tables the snapshot carries the newest LOBBY_PAGE_SIZE of them,
    newest first, ``count`` 1000 and ``more`` true, and the socket still answers a ping."""
    tables = await sync_to_async(many_open_tables)(1000)
    socket = await open_socket("/ws/lobby/")
    snapshot = await socket.receive_json_from(timeout=10)
    newest = sorted((t.pk for t in tables), reverse=True)[: settings.LOBBY_PAGE_SIZE]
    assert [t["id"] for t in snapshot["tables"]] == newest
    assert snapshot["count"] == 1000 and snapshot["more"] is True
    await socket.send_json_to({"type": "ping"})
    assert (await socket.receive_json_from(timeout=5))["type"] == "pong"
    await socket.disconnect()


async def test_asking_for_more_walks_every_open_table_exactly_once():
    """Pass: following ``more`` from the snapshot's oldest table yields all 1,000 tables once,
    in order, and the last page says there is no more."""
    tables = await sync_to_async(many_open_tables)(1000)
    socket = await open_socket("/ws/lobby/")
    page = await socket.receive_json_from(timeout=10)
    seen = [t["id"] for t in page["tables"]]
    while page["more"]:
        await socket.send_json_to({"type": "more", "before": seen[-1]})
        page = await socket.receive_json_from(timeout=10)
        assert page["type"] == "tables"
        assert len(page["tables"]) <= settings.LOBBY_PAGE_SIZE
        seen += [t["id"] for t in page["tables"]]
    assert seen == sorted((t.pk for t in tables), reverse=True)
    await socket.disconnect()


async def test_the_socket_filter_counts_and_pages_only_its_game_and_stake():
    """Pass: ``/ws/lobby/?game=classic_joker`` counts and lists the 3 classic tables among
    1,000 others; a nonsense filter is ignored rather than refused."""
    await sync_to_async(many_open_tables)(1000)
    classic = await sync_to_async(many_open_tables)(3, game="classic_joker", prefix="classic")
    socket = await open_socket("/ws/lobby/?game=classic_joker&stake=0")
    snapshot = await socket.receive_json_from(timeout=10)
    assert snapshot["count"] == 3 and snapshot["more"] is False
    assert [t["id"] for t in snapshot["tables"]] == sorted((t.pk for t in classic), reverse=True)
    await socket.disconnect()
    socket = await open_socket("/ws/lobby/?game=%00&stake=many")
    assert (await socket.receive_json_from(timeout=10))["count"] == 1003
    await socket.disconnect()


def test_the_lobby_page_at_1000_tables_shows_one_page_the_count_and_a_way_to_see_more(
    django_assert_max_num_queries,
):
    """Pass: the server-rendered lobby lists LOBBY_PAGE_SIZE tables, says how many are open,
    links to the next page (which lists the next ones), all in a bounded number of queries."""
    tables = many_open_tables(1000)
    client = Client()
    with django_assert_max_num_queries(15):
        page = client.get("/").content.decode()
    assert shown(page).count('class="table-entry"') == settings.LOBBY_PAGE_SIZE
    assert "1000 open tables" in page
    oldest_shown = sorted((t.pk for t in tables), reverse=True)[settings.LOBBY_PAGE_SIZE - 1]
    assert f'href="?before={oldest_shown}"' in page
    second = client.get(f"/?before={oldest_shown}").content.decode()
    assert f'data-table-id="{oldest_shown - 1}"' in second
    assert f'data-table-id="{oldest_shown}"' not in second


@pytest.mark.postgres
@pytest.mark.slow
async def test_through_daphne_started_like_serve_the_lobby_survives_1000_tables(daphne):
    """Pass: through a real Daphne started with serve.py's options and 1,000 open tables, the
    lobby socket gets its snapshot, then a new table's event and a pong, and is not closed;
    a frame over LIVE_MAX_MESSAGE_BYTES is refused by the consumer (``too_big``, close 4009)."""
    await sync_to_async(many_open_tables)(1000)
    alice = await sync_to_async(make_player)("alice")
    async with websockets.connect(f"{daphne.url}/ws/lobby/", origin="http://localhost") as ws:
        snapshot = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert snapshot["count"] == 1000
        table = await sync_to_async(tables.table_create)(
            creator=alice, game="japanese_joker", options={}, stake=0, visibility="public"
        )
        event = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert event["type"] == "table" and event["table"]["id"] == table.pk
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "pong"
        await ws.send(json.dumps({"type": "ping", "pad": "x" * settings.LIVE_MAX_MESSAGE_BYTES}))
        refusal = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert refusal["code"] == "too_big"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd.code == 4009
    assert "Traceback" not in daphne.output()


@pytest.mark.slow
def test_in_the_browser_the_lobby_shows_a_page_the_count_and_loads_older_tables_in_place(
    browser, e2e_server
):
    """Pass: in Chromium, with 60 open tables the lobby shows 50 and "60 open tables"; "Show
    older tables" adds the other 10 without leaving the page and then disappears; a table
    opened meanwhile appears first and the count says 61; cancelling it brings 60 back."""
    if e2e_server.env.get("DATABASE_URL") is None:
        pytest.skip("the browser's server shares the test database on PostgreSQL only")
    many_open_tables(60)
    context = browser.new_context(base_url=e2e_server.url, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    page.wait_for_selector("#tables[data-live='yes']", state="attached")
    entries = page.locator("#tables .table-entry")
    assert entries.count() == settings.LOBBY_PAGE_SIZE
    assert page.locator("#table-count").inner_text() == "60 open tables"
    url = page.url
    page.get_by_role("link", name="Show older tables").click()
    page.wait_for_function("() => document.querySelectorAll('#tables .table-entry').length === 60")
    assert page.url == url
    assert page.locator("#more-tables-line").is_hidden()

    # Another browser opens a table (through the server, whose channel layer the page hears).
    host = browser.new_context(base_url=e2e_server.url, locale="en-US").new_page()
    host.goto("/")
    host.get_by_role("button", name="Play as guest").click()
    host.goto("/tables/new/classic_joker/")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = host.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_function("() => document.querySelectorAll('#tables .table-entry').length === 61")
    assert entries.first.get_attribute("data-table-id") == table_id
    assert page.locator("#table-count").inner_text() == "61 open tables"
    host.get_by_role("button", name="Cancel the table").click()
    page.wait_for_function("() => document.querySelectorAll('#tables .table-entry').length === 60")
    assert page.locator("#table-count").inner_text() == "60 open tables"
    host.context.close()
    context.close()
    assert not errors, errors
