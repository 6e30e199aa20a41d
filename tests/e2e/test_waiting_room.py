"""The waiting room catches up with what happened while its socket was down (issue 5, item 5).

The lobby socket is lossy across a reconnection: news published while it was closed (a seat
taken, the match started) never arrives. The page must not wait forever on a table that has
already started.
"""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection

from games.services import tables
from tests.support.players import make_player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYING_JS = (
    "() => window.jokerTable && window.jokerTable.client.state"
    " && window.jokerTable.client.state.status === 'playing'"
)


def _take_the_last_seat(table_id: int) -> None:
    try:
        tables.table_join(player=make_player("bob"), table_id=table_id)
    finally:
        connection.close()


def test_a_match_that_started_while_the_server_was_down_is_found_on_reconnection(
    people, e2e_server
):
    (host,) = people(1)
    url = host.open_table("japanese_joker")
    table_id = int(re.search(r"/tables/(\d+)/$", url).group(1))
    host.page.locator('#live-status[data-connected="yes"]').wait_for(state="attached")

    e2e_server.stop()
    status = host.page.locator("#live-status")
    status.wait_for()
    assert status.inner_text() == "reconnecting…"
    # Meanwhile the last seat is taken and the match starts; nobody can tell the page.
    # (In a thread of its own: the services publish through async_to_sync, which cannot run
    # inside the browser driver's event loop.)
    joiner = threading.Thread(target=_take_the_last_seat, args=(table_id,))
    joiner.start()
    joiner.join(timeout=30)
    e2e_server.start()

    host.page.wait_for_function(PLAYING_JS, timeout=30_000)
    assert host.page.url.endswith(f"/tables/{table_id}/")
