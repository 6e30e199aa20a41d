"""Frames that overtake each other on their way to a page (docs/protocol.md § presence).

A player's reload publishes two `presence` frames of one match version from two sockets (the
old one's close: absent; the new one's open: present), and a move's `state` and a `presence`
told just after it come from two transactions: each is sent after its own commit, so a page may
get them in either order. These tests record the frames a real page received from the server
and hand them to the page's client again, the later one first: the page must go on showing the
newer seats, not the frame that came last (a seat shown "offline" that is back, or the reverse).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .people import Person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OTHER_OFFLINE = ".seat-zone:not(.me) .badge.gone"
APPLY_JS = "frames => frames.forEach(frame => window.jokerTable.client.apply(frame))"


def recording(person: Person) -> list[dict[str, Any]]:
    """Every frame the person's page receives from now on, parsed."""
    frames: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    person.page.on("websocket", on_socket)
    return frames


def other_connected(person: Person) -> bool:
    """Whether the person's page holds the other seat (of two) present."""
    state = person.state
    return state["seats"][1 - state["seat"]]["connected"]


def presence_of(frames: list[dict[str, Any]], seat: int, *, connected: bool) -> dict[str, Any]:
    """The last presence frame that showed the seat so."""
    return [
        f for f in frames if f["type"] == "presence" and f["seats"][seat]["connected"] is connected
    ][-1]


def playing(people) -> tuple[Person, Person, str, list[dict[str, Any]]]:
    """Alice and Bob at a started Japanese Joker table, with what Alice's page receives."""
    alice, bob = people(2)
    frames = recording(alice)
    url = alice.open_table("japanese_joker")
    bob.join(url)
    alice.wait_version(0)
    bob.wait_version(0)
    return alice, bob, url, frames


def test_a_reload_whose_frames_arrive_the_wrong_way_round_leaves_the_player_present(people):
    alice, bob, url, frames = playing(people)
    bob.page.goto("about:blank")  # bob reloads: his old socket closes...
    alice.page.locator(OTHER_OFFLINE).wait_for()
    bob.page.goto(url)  # ...and his new one opens
    bob.wait_version(0)
    alice.page.locator(OTHER_OFFLINE).wait_for(state="detached")
    bob_seat = bob.state["seat"]
    gone = presence_of(frames, bob_seat, connected=False)
    back = presence_of(frames, bob_seat, connected=True)
    assert gone["version"] == back["version"]
    assert gone["presence_version"] < back["presence_version"]

    alice.page.evaluate(APPLY_JS, [back, gone])  # the close's frame came last
    assert other_connected(alice)
    assert alice.page.locator(OTHER_OFFLINE).count() == 0


def test_a_moves_state_that_comes_after_a_later_presence_keeps_the_presence(people):
    alice, bob, _url, frames = playing(people)
    to_act = alice if alice.state["view"]["to_act"] == alice.state["seat"] else bob
    to_act.page.locator("#action-panel .choices button:not([disabled])").first.click()
    alice.wait_version(1)
    (moved,) = [f for f in frames if f["type"] == "state" and f["version"] == 1]

    bob_seat = bob.state["seat"]
    bob.page.goto("about:blank")  # after the move, bob goes
    alice.page.locator(OTHER_OFFLINE).wait_for()
    gone = presence_of(frames, bob_seat, connected=False)
    assert gone["version"] == moved["version"] == 1
    assert gone["presence_version"] > moved["presence_version"]

    alice.page.evaluate(APPLY_JS, [gone, moved])  # the move's state came last
    assert alice.state["version"] == 1
    assert not other_connected(alice)
    alice.page.locator(OTHER_OFFLINE).wait_for()
