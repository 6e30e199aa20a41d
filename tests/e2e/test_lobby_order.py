"""Lobby events that overtake each other (docs/protocol.md § The lobby socket).

Each `table` and `table_removed` event is sent after its own commit, so a table's `table` event
can reach a lobby page after the `table_removed` of its start. The page must not draw a started
table again: this test holds the lobby socket's real `table` events back until the removal has
passed, then delivers them, as a slow publisher would.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LIVE = "#tables[data-live='yes']"


def test_a_table_event_after_its_removal_does_not_bring_a_started_table_back(people):
    alice, bob, watcher = people(3)
    held: list[str] = []
    released: list[dict[str, Any]] = []

    def late_tables(socket: Any) -> None:
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame["type"] == "table":
                held.append(message)
                return
            socket.send(message)
            if frame["type"] == "table_removed":
                released.append(frame)
                for late in held:
                    socket.send(late)

        server.on_message(from_server)
        socket.on_message(lambda message: server.send(message))

    watcher.page.route_web_socket(re.compile(r"/ws/lobby/"), late_tables)
    watcher.page.goto("/")
    watcher.page.locator(LIVE).wait_for(state="attached")
    count_before = watcher.page.locator("#table-count").inner_text()

    url = alice.open_table("japanese_joker")
    table_id = int(re.search(r"/tables/(\d+)/", url).group(1))
    bob.join(url)
    bob.wait_version(0)
    for _ in range(100):
        if released:
            break
        watcher.page.wait_for_timeout(100)
    assert [frame["id"] for frame in released] == [table_id]
    assert released[0]["status"] == "playing"
    assert [json.loads(m)["table"]["id"] for m in held] == [table_id] * len(held) and held
    watcher.page.wait_for_timeout(300)  # the late events are in

    assert watcher.page.locator(f'#tables [data-table-id="{table_id}"]').count() == 0
    assert watcher.page.locator("#table-count").inner_text() == count_before
