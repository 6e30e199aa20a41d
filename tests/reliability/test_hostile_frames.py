"""Item 7: no frame a client sends raises in the server.

Every frame on the lobby and ping sockets gets an ``error`` reply (or, past a limit, a close
with the documented code); an unknown websocket path is refused at the handshake (403) instead
of failing it with a server error; invalid UTF-8 is closed by Daphne with 1007.
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


@pytest.mark.parametrize("payload", ['"\\ud83d"', '"\\udfff tail"', "7", json.dumps("x" * 201)])
async def test_a_ping_payload_the_channel_layer_cannot_carry_is_refused(payload):
    """Pass: a payload that is a lone surrogate (valid JSON, but no UTF-8 encoder takes it: on
    the Redis layer the relay raised), not text, or too long gets ``bad_payload`` and the
    socket still answers."""
    socket = await open_socket("/ws/ping/")
    await socket.send_to(text_data=f'{{"type": "ping", "payload": {payload}}}')
    reply = await socket.receive_json_from(timeout=5)
    assert reply["type"] == "error" and reply["code"] == "bad_payload"
    await _still_answers(socket)
    await socket.disconnect()


@pytest.mark.parametrize("path", ["/ws/table/-1/", "/ws/table/abc/", "/ws/nowhere/", "/ws/"])
async def test_an_unknown_websocket_path_is_refused_at_the_handshake(path):
    """Pass: the handshake is refused (Daphne answers HTTP 403), not failed with an error."""
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert not connected


@pytest.mark.postgres
@pytest.mark.slow
async def test_through_daphne_hostile_frames_are_answered_and_nothing_is_logged_as_an_error(
    daphne,
):
    """Pass: through a real Daphne started like serve.py, nested JSON and a binary frame on the
    lobby are answered with ``bad_json``; invalid UTF-8 closes with 1007; an unknown route
    is refused at the handshake with 403; the server's log has no traceback."""
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
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(f"{daphne.url}/ws/table/-1/", origin="http://localhost")
    assert refused.value.response.status_code == 403
    await asyncio.sleep(0.5)
    output = daphne.output()
    assert "Traceback" not in output and "ERROR" not in output, output
