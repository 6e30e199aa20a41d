"""Issue 25, defect 4: a client that sends but never reads. What waits for it is bounded
(``LIVE_SEND_BUFFER_BYTES``, then close 4013), a ``sync`` adds nothing while the last snapshot
still waits, and it is pinged like a silent client (so it is closed when it does not answer),
through a real Daphne started as ``scripts/serve.py`` starts it (core/transport.py).
Each test's docstring states its pass criterion."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time

import pytest
from channels.db import database_sync_to_async as sync_to_async

from core.transport import CLOSE_SLOW_READER, BoundedWebSocketProtocol
from games.models import TableConnection
from tests.support.daphne import Remote, play_remotes, session_cookie
from tests.support.live import start_table
from tests.support.raw_socket import RawSocket

from .conftest import Daphne, end_server_sessions

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


class Syncing(threading.Thread):
    """Sends ``sync`` eight times a second (under the rate limit) until the server drops it."""

    def __init__(self, raw: RawSocket) -> None:
        super().__init__(daemon=True)
        self.raw = raw
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.125):
            try:
                self.raw.send_json({"type": "sync"})
            except OSError:
                return


def _visitor_rows(table_id: int) -> int:
    return TableConnection.objects.filter(table_id=table_id, player=None).count()


async def _until(check, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if await sync_to_async(check)():
            return True
        await asyncio.sleep(0.25)
    return False


@pytest.fixture
def server(tmp_path):
    made = []

    def start(*daphne_options: str, **env: str) -> Daphne:
        daphne = Daphne(tmp_path)
        daphne.command = [*daphne.command[:-1], *daphne_options, daphne.command[-1]]
        daphne.env.update(env)
        made.append(daphne)
        return daphne.start()

    yield start
    for daphne in made:
        daphne.stop()
    end_server_sessions()


async def test_a_spectator_that_never_reads_is_closed_once_the_bound_is_passed(alice, bob, server):
    """Pass: a visitor watching a match through a socket it never reads (sending ``sync`` under
    the rate limit) is closed by the server once more than ``LIVE_SEND_BUFFER_BYTES`` (64 KiB
    here) wait for it, with one log line; its presence row goes; the players play on."""
    daphne = server(
        LIVE_SEND_BUFFER_BYTES="65536", LIVE_RATE_PER_SECOND="10000", LIVE_RATE_BURST="10000"
    )
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    raw = RawSocket(daphne.port, f"/ws/table/{table.pk}/")
    syncing = Syncing(raw)
    syncing.start()
    assert await _until(lambda: _visitor_rows(table.pk) == 1, 20)
    remotes = {}
    for player in (alice, bob):
        remote = await Remote(await sync_to_async(session_cookie)(player)).connect(
            daphne.url + f"/ws/table/{table.pk}/"
        )
        remotes[remote.state["seat"]] = remote

    def closed(moves, state) -> bool:
        return "waited for it unread" in daphne.output()

    await play_remotes(table.pk, remotes, random.Random(25), stop=closed)
    syncing.stopped.set()
    assert closed(0, None), "the match ended and the visitor that never reads is still open"
    assert await _until(lambda: _visitor_rows(table.pk) == 0, 20)
    assert daphne.output().count("waited for it unread") == 1
    state = remotes[0].state
    if state["status"] == "playing":  # the players carry on
        actor = remotes[state["view"]["to_act"]]
        answer = await actor.act(actor.state["view"]["legal"][0])
        assert answer["type"] == "ack", answer
    for remote in remotes.values():
        await remote.close()
    raw.close()


async def test_a_client_that_sends_but_never_reads_is_pinged_and_closed(alice, bob, server):
    """Pass: with pings every second and two seconds to answer, a visitor that sends ``sync``
    eight times a second but never reads is closed within 15 s (its presence row goes), while
    alice, who reads, sends ``sync`` as often and is still answered after it."""
    daphne = server("--ping-interval", "1", "--ping-timeout", "2")
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    raw = RawSocket(daphne.port, f"/ws/table/{table.pk}/")
    syncing = Syncing(raw)
    syncing.start()
    assert await _until(lambda: _visitor_rows(table.pk) == 1, 20)
    reader = await Remote(await sync_to_async(session_cookie)(alice)).connect(
        daphne.url + f"/ws/table/{table.pk}/"
    )

    async def read_and_sync() -> None:
        while True:
            await reader.ws.send('{"type": "sync"}')
            while True:  # read everything there is, as a browser does
                try:
                    await reader.recv(timeout=0.125)
                except TimeoutError:
                    break

    keep_reading = asyncio.ensure_future(read_and_sync())
    try:
        assert await _until(lambda: _visitor_rows(table.pk) == 0, 15)
    finally:
        keep_reading.cancel()
        syncing.stopped.set()
        with contextlib.suppress(asyncio.CancelledError):
            await keep_reading
    await reader.ws.send('{"type": "ping"}')
    assert (await reader.recv())["type"] in ("pong", "state")
    await reader.close()
    raw.close()


# --- The protocol's rules, on a transport we control ---------------------------------------


class QueueingTransport:
    """The part of a Twisted TCP transport the protocol reads: what is still queued."""

    dataBuffer = b""
    offset = 0
    _tempDataLen = 0

    def flush(self, count: int | None = None) -> None:
        """The kernel takes ``count`` bytes (all by default)."""
        self._tempDataLen = 0 if count is None else max(0, self._tempDataLen - count)


@pytest.fixture
def protocol(monkeypatch, settings):
    """A BoundedWebSocketProtocol whose every frame lands in a QueueingTransport."""
    settings.LIVE_SEND_BUFFER_BYTES = 1000
    closes: list[int] = []
    sent: list[str] = []
    proto = BoundedWebSocketProtocol.__new__(BoundedWebSocketProtocol)
    proto.transport = QueueingTransport()
    proto.state = proto.STATE_OPEN
    proto.client_addr = ["127.0.0.1", 1]

    def queue(self, message):
        sent.append(message["text"])
        self.transport._tempDataLen += len(message["text"]) + 2  # a frame's header

    monkeypatch.setattr("daphne.ws_protocol.WebSocketProtocol.handle_reply", queue, raising=True)
    monkeypatch.setattr(
        BoundedWebSocketProtocol, "sendClose", lambda self, code: closes.append(code)
    )
    return proto, sent, closes


def _send(proto, text: str, *, replaceable: bool = False) -> None:
    message = {"type": "websocket.send", "text": text}
    if replaceable:
        message["replaceable"] = True
    proto.handle_reply(message)


def test_a_snapshot_is_left_out_while_the_last_one_still_waits(protocol):
    """Pass: a second snapshot is not queued while any byte of the first is; once the kernel
    has taken the first one whole (frames after it may still wait), the next goes."""
    proto, sent, _closes = protocol
    _send(proto, "S" * 100, replaceable=True)
    _send(proto, "f" * 50)
    _send(proto, "T" * 100, replaceable=True)
    assert sent == ["S" * 100, "f" * 50]
    proto.transport.flush(60)  # part of the first snapshot is still there
    _send(proto, "U" * 100, replaceable=True)
    assert sent == ["S" * 100, "f" * 50]
    proto.transport.flush(42)  # the first snapshot is out; the frame after it waits
    _send(proto, "V" * 100, replaceable=True)
    assert sent == ["S" * 100, "f" * 50, "V" * 100]


def test_past_the_bound_the_socket_is_closed_with_4013_once(protocol):
    """Pass: frames that the client does not read queue up to the bound; the one that passes
    it closes the socket with 4013, and only once."""
    proto, _sent, closes = protocol
    for _ in range(9):
        _send(proto, "x" * 98)
    assert closes == []
    _send(proto, "x" * 98)  # 1,000 bytes queued: at the bound, not past it
    assert closes == []
    _send(proto, "x")
    assert closes == [CLOSE_SLOW_READER]
    proto.state = proto.STATE_CLOSING
    _send(proto, "x")
    assert closes == [CLOSE_SLOW_READER]
