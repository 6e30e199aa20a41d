"""Hostile frames against a production-mode server (issue 10 § 7).

Pass criterion: at least 10,000 frames of every kind (random JSON, message-shaped garbage, acts
with hostile ids and actions, deep nesting, oversized and binary frames, NUL and lone surrogates
in strings) sent to the table, lobby and ping sockets, as a player, a spectator and a visitor,
and unknown routes at the handshake, leave no uncaught exception in the server's log; every
socket answered or closed with a documented code, and the match is unchanged but for legal moves.

The server is a real Daphne process in production mode (``DJANGO_ENV=production``) on the test
database, so this needs PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import string
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async as sync_to_async  # closes its connections

from games.models import Match
from tests.support.daphne import Daphne, session_cookie
from tests.support.live import replay, start_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

FRAMES = 10_000
DOCUMENTED_CLOSES = {1000, 1006, 1007, 1009, 4003, 4004, 4008, 4009}
CLOSE_WAIT_SECONDS = 20
TYPES = ["act", "sync", "ping", "leave", "rematch", "hello", "", None, 7, "ACT", "act "]


def _text(rng: random.Random) -> str:
    alphabet = string.printable + "\x00\u00e9\u10d0\u0416\U0001f0cf"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randint(0, 9 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 2**63, -(2**70), 10**400, 17])
    if kind == 3:
        return rng.choice([0.5, -1e308, 1e-320, 3.0])
    if kind in (4, 5):
        return _text(rng)
    if kind in (6, 7):
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {_text(rng): _value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def _frame(rng: random.Random) -> str | bytes:
    """One hostile frame: text (JSON or not) or bytes."""
    kind = rng.randint(0, 11)
    if kind == 0:
        return json.dumps(_value(rng))
    if kind == 1:
        message = {"type": rng.choice(TYPES)}
        for _ in range(rng.randint(0, 3)):
            message[rng.choice(["version", "id", "action", "table", "accept", "x"])] = _value(rng)
        return json.dumps(message)
    if kind == 2:  # an act with a hostile id: NUL, a lone surrogate (as JSON escapes it), …
        hostile = rng.choice(["\x00", "\\ud800", "\\udfff", "a" * 65, "", "\\u0000x", "ok-1"])
        action = rng.choice(
            [
                {"type": "play", "card": rng.choice(["AS", "X1", "ZZ", "", "\\u0000"])},
                {"type": "trump", "suit": _value(rng)},
                {"type": "bid", "tricks": _value(rng)},
                {"type": _value(rng)},
                _value(rng),
            ]
        )
        body = json.dumps({"type": "act", "version": rng.randint(-2, 3), "action": action})
        return body[:-1] + f', "id": "{hostile}"}}'
    if kind == 3:  # deep nesting, under the size limit
        depth = rng.choice([500, 1500, 1900])
        return rng.choice(["[", '{"a":'])[:1] * depth + "]" * depth
    if kind == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    if kind == 5:
        return json.dumps({"type": "sync", "pad": "x" * rng.choice([5_000, 9_000])})
    if kind == 6:
        return _text(rng)
    if kind == 7:
        return '{"type": "ping", "payload": "\\ud83d"}'
    if kind == 8:
        return json.dumps({"type": "ping", "payload": _value(rng)})
    if kind == 9:
        return "NaN" if rng.random() < 0.5 else '{"type": "act", "version": NaN}'
    return json.dumps({"type": rng.choice(["sync", "ping"])})


async def _hammer(url: str, cookie: str | None, rng: random.Random, count: int) -> dict[str, int]:
    """Send ``count`` hostile frames over as many connections as it takes (a closed socket is
    opened again); return the close codes seen."""
    closes: dict[str, int] = {}
    sent = 0
    headers = {"Cookie": cookie} if cookie else {}
    while sent < count:
        try:
            async with websockets.connect(
                url, origin="http://127.0.0.1", additional_headers=headers, open_timeout=10
            ) as ws:
                reader = asyncio.ensure_future(_drain(ws))
                try:
                    while sent < count:
                        await ws.send(_frame(rng))
                        sent += 1
                        if sent % 50 == 0:
                            await asyncio.sleep(0)
                    # The client can send faster than the server reads: the frame that closes
                    # this socket may still be on its way. Let the server read them all.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.wait_closed(), CLOSE_WAIT_SECONDS)
                    if ws.close_code is not None:
                        _count_close(closes, ws.close_code)
                finally:
                    reader.cancel()
        except websockets.ConnectionClosed as closed:
            _count_close(closes, closed.rcvd.code if closed.rcvd else 1006)
        except websockets.InvalidStatus as refused:  # a handshake refused (origin, route)
            closes[f"http {refused.response.status_code}"] = 1
            return closes
    return closes


def _count_close(closes: dict[str, int], code: int) -> None:
    assert code in DOCUMENTED_CLOSES, code
    closes[str(code)] = closes.get(str(code), 0) + 1


async def _drain(ws: Any) -> None:
    try:
        async for _ in ws:
            pass
    except websockets.ConnectionClosed:
        pass


@pytest.fixture
def production_server(tmp_path):
    server = Daphne(tmp_path, prefix="fuzz", redis=True)
    server.env.update(
        {
            "DJANGO_ENV": "production",
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "SECRET_KEY": "fuzz-" + "k" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "LIVE_MAX_BAD_MESSAGES": "1000000",
        }
    )
    server.start()
    yield server
    server.kill()


async def test_ten_thousand_hostile_frames_raise_no_uncaught_exception(
    alice, bob, eve, production_server
):
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    before = await sync_to_async(Match.objects.get)(table_id=table.pk)
    alice_cookie = await sync_to_async(session_cookie)(alice)
    eve_cookie = await sync_to_async(session_cookie)(eve)
    base = f"ws://127.0.0.1:{production_server.port}"
    targets = [
        (f"{base}/ws/table/{table.pk}/", alice_cookie),  # a player
        (f"{base}/ws/table/{table.pk}/", eve_cookie),  # a spectator
        (f"{base}/ws/table/{table.pk}/", None),  # a visitor
        (f"{base}/ws/lobby/", alice_cookie),
        (f"{base}/ws/lobby/", None),
        (f"{base}/ws/ping/", eve_cookie),
        (f"{base}/ws/ping/", None),
    ]
    share = FRAMES // len(targets) + 1
    results = await asyncio.gather(
        *(
            _hammer(url, cookie, random.Random(index), share)
            for index, (url, cookie) in enumerate(targets)
        )
    )
    for route in ("/ws/table/-1/", "/ws/table/abc/", "/ws/nothing/", "/ws/"):
        await _hammer(f"{base}{route}", alice_cookie, random.Random(route), 3)
    log = production_server.log.read_text()
    for marker in ("Traceback", "Exception inside application", " ERROR "):
        assert marker not in log, log[-5000:]
    # Whatever the fuzz managed to play was legal: the log replays to the stored state.
    after = await sync_to_async(Match.objects.get)(table_id=table.pk)
    states = await sync_to_async(replay)(after)
    assert states[after.version].to_dict() == after.state
    assert after.version >= before.version
    assert any(results), "no socket was ever closed: the guards did not fire"
