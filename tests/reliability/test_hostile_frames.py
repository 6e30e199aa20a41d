"""Item 7: no frame a client sends raises in the server.

Every frame on the lobby and ping sockets gets an ``error`` reply (or, past a limit, a close
with the documented code); an unknown websocket path is closed with 4004 instead of failing the
handshake with a server error; invalid UTF-8 is closed by Daphne with 1007.
"""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
import websockets
from channels.testing import WebsocketCommunicator

from config.asgi import application

from .conftest import ORIGIN, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

SOCKETS = ["/ws/lobby/", "/ws/ping/"]
# Deeper than the JSON parser's recursion limit, and still within the 4 KiB frame limit.
NESTED = "[" * 2000 + "]" * 2000


async def _skip_snapshot(socket, path: str) -> None:
    if path == "/ws/lobby/":
        assert (await socket.receive_json_from(timeout=5))["type"] == "lobby"


async def _still_answers(socket) -> None:
    await socket.send_json_to({"type": "ping"})
    assert (await socket.receive_json_from(timeout=5))["type"] == "pong"


@pytest.mark.parametrize("path", SOCKETS)
@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"text_data": NESTED}, "bad_json"),
        ({"text_data": '{"":' * 1000}, "bad_json"),
        ({"bytes_data": b"\x00\x01binary"}, "bad_json"),
        ({"text_data": "not json"}, "bad_json"),
        ({"text_data": "[1, 2]"}, "bad_json"),
        ({"text_data": '{"type": ["ping"]}'}, "bad_message"),
    ],
    ids=["nested-array", "nested-object", "binary", "not-json", "not-an-object", "odd-type"],
)
async def test_a_hostile_frame_gets_an_error_and_the_socket_stays_open(path, frame, code, caplog):
    """Pass: the socket answers ``error`` with the code, logs nothing at ERROR, and still
    answers a ping afterwards."""
    socket = await open_socket(path)
    await _skip_snapshot(socket, path)
    with caplog.at_level(logging.ERROR):
        await socket.send_to(**frame)
        reply = await socket.receive_json_from(timeout=5)
    assert reply["type"] == "error" and reply["code"] == code and reply["message"]
    await _still_answers(socket)
    await socket.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("path", ["/ws/table/-1/", "/ws/table/abc/", "/ws/nowhere/", "/ws/"])
async def test_an_unknown_websocket_path_is_closed_with_4004(path):
    """Pass: the handshake is accepted and the socket closed with 4004 (no server error)."""
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4004}


@pytest.mark.postgres
@pytest.mark.slow
async def test_through_daphne_hostile_frames_are_answered_and_nothing_is_logged_as_an_error(
    daphne,
):
    """Pass: through a real Daphne started like serve.py, nested JSON and a binary frame on the
    lobby are answered with ``bad_json``; invalid UTF-8 closes with 1007; an unknown route
    closes with 4004; the server's log has no traceback."""
    async with websockets.connect(f"{daphne.url}/ws/lobby/", origin="http://localhost") as ws:
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "lobby"
        for frame in (NESTED, b"\x00binary"):
            await ws.send(frame)
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "bad_json"
        await ws.send(b"\xff\xfe not utf-8", text=True)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is None or closed.value.rcvd.code == 1007
        assert closed.value.sent is None or closed.value.sent.code in {1000, 1007}
    async with websockets.connect(f"{daphne.url}/ws/table/-1/", origin="http://localhost") as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd.code == 4004
    await asyncio.sleep(0.5)
    output = daphne.output()
    assert "Traceback" not in output and "ERROR" not in output, output
