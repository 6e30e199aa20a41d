"""A waiting room whose match starts while its socket is still joining its groups.

In a CI run the joiner's page stayed in the waiting room while the match ran: the page asked
the server where the table was as its lobby socket opened (still open), and the start came a
moment later, published before that socket had joined its player's group (the joiner's previous
page had sent its value for the deal as it unloaded, so the start needed nothing of the new
page). The news never reached it. The page now asks once the socket's first frame, the lobby
snapshot, has come: the server sends it after joining the groups.

This test makes the window wide: the joiner's waiting-room socket is connected through a route
that holds the server's snapshot and drops every event until the match has started, as a
socket still joining its groups would miss them.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_joiners_waiting_room_goes_to_a_match_that_started_before_its_socket_heard(people):
    alice, bob = people(2)
    url = alice.open_table("japanese_joker")
    bob.page.goto(url)
    window = {"seated": False, "started": False}
    held: list[tuple[Any, str | bytes]] = []

    def joining_late(socket: Any) -> None:
        server = socket.connect_to_server()
        slow = window["seated"]  # only the waiting room's socket, opened after the seat was taken

        def from_server(message: str | bytes) -> None:
            if not slow or window["started"]:
                socket.send(message)
            elif json.loads(message)["type"] == "lobby":
                held.append((socket, message))  # the snapshot: it will come after the start

        server.on_message(from_server)
        socket.on_message(server.send)

    bob.page.route_web_socket(re.compile(r"/ws/lobby/"), joining_late)
    bob.page.reload()
    window["seated"] = True
    bob.page.get_by_role("button", name="Take a seat").click()
    bob.page.wait_for_url(url)

    assert alice.wait_version(0)["status"] == "playing"
    for _ in range(100):  # the waiting room's socket has its snapshot from the server
        if held:
            break
        bob.page.wait_for_timeout(100)
    assert held, "the waiting room's socket never got its snapshot"
    assert bob.page.locator("#seats").count() == 1, "the page left the waiting room by itself"
    window["started"] = True
    for socket, message in held:
        socket.send(message)
    state = bob.wait_version(0)
    assert state["status"] == "playing" and state["seat"] is not None
