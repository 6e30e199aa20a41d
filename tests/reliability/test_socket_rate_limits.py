"""Item 8: the lobby and ping sockets have the table socket's token bucket and close code.

A burst of LIVE_RATE_BURST messages, then LIVE_RATE_PER_SECOND; beyond that ``error`` ``flood``
and close 4008, so a client cannot make the server answer (and write) without limit.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from django.conf import settings

from tests.support.players import make_player

from .conftest import open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

FLOOD = 200


async def _flood(socket) -> tuple[int, list[dict], dict]:
    for _ in range(FLOOD):
        await socket.send_json_to({"type": "ping"})
    pongs, errors = 0, []
    while True:
        output = await socket.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return pongs, errors, output
        frame = json.loads(output["text"])
        if frame["type"] == "pong":
            pongs += 1
        elif frame["type"] == "error":
            errors.append(frame)


@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/ping/"])
async def test_a_flood_of_pings_is_cut_off_with_flood_and_4008(path):
    """Pass: of 200 pings sent at once, fewer than 200 are answered; the socket says ``flood``
    and closes with 4008. (The ping socket's pongs travel through the channel layer, so some
    of the burst's may still be on their way when it closes.)"""
    alice = await sync_to_async(make_player)("alice")
    socket = await open_socket(path, await sync_to_async(session_cookie)(alice))
    if path == "/ws/lobby/":
        await socket.receive_json_from(timeout=5)
    pongs, errors, closed = await _flood(socket)
    assert pongs < FLOOD
    if path == "/ws/lobby/":
        assert pongs >= settings.LIVE_RATE_BURST
    assert [e["code"] for e in errors] == ["flood"]
    assert closed["code"] == 4008
    await socket.disconnect()


@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/ping/"])
async def test_ten_bad_messages_close_the_socket_with_4008(path):
    """Pass: LIVE_MAX_BAD_MESSAGES frames the socket cannot use end with ``too_many_errors``
    and close 4008."""
    socket = await open_socket(path)
    if path == "/ws/lobby/":
        await socket.receive_json_from(timeout=5)
    codes = []
    for _ in range(settings.LIVE_MAX_BAD_MESSAGES):
        await socket.send_json_to({"type": "dance"})
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
        codes.append(json.loads(output["text"])["code"])
    assert codes == ["bad_message"] * settings.LIVE_MAX_BAD_MESSAGES + ["too_many_errors"]
    assert output["code"] == 4008
    await socket.disconnect()
