"""Live play through the real ASGI stack: sockets, a random player, the hidden-card scan and
the replay of a match from its seed and events (their own tests: games/test_live_helpers.py).
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.models import Player
from config.asgi import application
from core.realtime import Message, collecting
from games import history
from games import replay as game_replay
from games.models import Match, Table
from games.services import tables

ORIGIN = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|X[12])(?![A-Za-z0-9])")
_ids = itertools.count(1)


class Closed(Exception):
    def __init__(self, code: int | None) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


def cookie_headers(player: Player | None) -> list[tuple[bytes, bytes]]:
    """Headers of a browser logged in as ``player`` (a registered player), or a visitor."""
    if player is None:
        return list(ORIGIN)
    client = Client()
    client.force_login(player.user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [*ORIGIN, (b"cookie", cookie.encode())]


def start_table(
    game: str, players: list[Player], *, options=None, stake: int = 0, speed: str = "normal"
) -> Table:
    """A table whose match has started: the first player opens it, the others join."""
    table = tables.table_create(
        creator=players[0],
        game=game,
        options=options or {},
        stake=stake,
        visibility="public",
        speed=speed,
    )
    for player in players[1:]:
        tables.table_join(player=player, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table


class Sock:
    """One client socket: every frame it receives is kept (for the hidden-card scan)."""

    def __init__(self, communicator: WebsocketCommunicator, table_id: int) -> None:
        self.communicator = communicator
        self.table_id = table_id
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.closed: int | None = None

    @classmethod
    async def open(cls, table_id: int, headers: list[tuple[bytes, bytes]], app=None) -> Sock:
        communicator = WebsocketCommunicator(
            app or application, f"/ws/table/{table_id}/", headers=headers
        )
        connected, _ = await communicator.connect(timeout=10)
        assert connected
        sock = cls(communicator, table_id)
        first = await sock.recv()
        assert first["type"] == "state", first
        return sock

    @property
    def seat(self) -> int | None:
        return self.state["seat"] if self.state else None

    @property
    def version(self) -> int:
        return self.state["version"] if self.state else -1

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        output = await self.communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            self.closed = output.get("code")
            # As a browser would: answer the close, so the consumer's disconnect runs and ends.
            await self.communicator.send_input(
                {"type": "websocket.disconnect", "code": self.closed}
            )
            await self.communicator.wait(timeout)
            raise Closed(self.closed)
        import json

        frame = json.loads(output["text"])
        self.frames.append(frame)
        if frame["type"] == "state" and frame["version"] >= self.version:
            self.state = frame
        return frame

    async def send(self, message: Any) -> None:
        await self.communicator.send_json_to(message)

    async def until(self, predicate, timeout: float = 10) -> dict[str, Any]:
        while True:
            frame = await self.recv(timeout)
            if predicate(frame):
                return frame

    async def until_version(self, version: int, timeout: float = 10) -> None:
        while self.version < version:
            await self.recv(timeout)

    async def drain(self) -> None:
        while not await self.communicator.receive_nothing(timeout=0.05):
            await self.recv()

    async def act(self, action: dict[str, Any], *, version: int | None = None, id=None) -> dict:
        """Send one move; return the ack or error that answers it."""
        action_id = id or f"a{next(_ids)}"
        await self.send(
            {
                "type": "act",
                "version": self.version if version is None else version,
                "id": action_id,
                "action": action,
            }
        )
        return await self.until(
            lambda f: f["type"] in ("ack", "error") and f.get("id") == action_id
        )

    async def close(self) -> None:
        """Close as a browser does, and wait until the server has handled it (its presence row is
        gone), however busy the machine."""
        if self.closed is None:
            await self.communicator.disconnect(timeout=10)


def published(callbacks: list[Any]) -> list[Message]:
    """What the commit callbacks a test captured publish (``django_capture_on_commit_callbacks``),
    collected instead of sent."""
    _, messages = collecting(lambda: [callback() for callback in callbacks])()
    return messages


@sync_to_async  # closes the thread's connection, so the test database can be dropped
def match_version(table_id: int) -> int:
    return Match.objects.get(table_id=table_id).version


async def settle(table_id: int, socks: list[Sock]) -> int:
    """Wait until every socket holds the newest version; return it."""
    version = await match_version(table_id)
    for sock in socks:
        await sock.until_version(version)
    return version


async def play_to_end(
    table_id: int,
    players: dict[int, Sock],
    watchers: list[Sock] = (),
    *,
    rng: random.Random,
    max_moves: int = 5000,
    stop=None,
) -> int:
    """Random legal moves from whichever seat is to act until the match is over.

    ``stop(move_count)`` may end the loop early (returns True), e.g. to kill a server mid-hand.
    Returns the number of moves sent.
    """
    everyone = [*players.values(), *watchers]
    for moves in range(max_moves):
        await settle(table_id, everyone)
        state = next(iter(players.values())).state
        if state["status"] != "playing":
            return moves
        if stop is not None and stop(moves):
            return moves
        actor = players[state["view"]["to_act"]]
        action = rng.choice(actor.state["view"]["legal"])
        answer = await actor.act(action)
        assert answer["type"] == "ack", answer
    raise AssertionError("the match did not end")


# --- Replay and the hidden-card scan -----------------------------------------------------------


def replay(match: Match) -> dict[int, Any]:
    """Every state of the match by version, rebuilt from its seed and event log alone
    (``games.replay``, which the match page and ``verify_match`` use too)."""
    steps = game_replay.replay(match.game, match.options, match.seed, history.match_events(match))
    return {step.version: step.state for step in steps}


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a frame: exact strings, keys, and codes inside sentences."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= card_codes(key) | card_codes(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_codes(item)
    elif isinstance(value, str):
        found.update(CARD.findall(value))
    return found


@sync_to_async
def scan_hidden(table_id: int, socks: list[Sock]) -> int:
    """Assert no socket ever received a card its seat may not know at that version.

    Returns how many frames were scanned.
    """
    match = Match.objects.get(table_id=table_id)
    states = replay(match)
    scanned = 0
    for sock in socks:
        seat = None
        version = 0
        for frame in sock.frames:
            if frame["type"] == "state":
                seat = frame["seat"]
            if isinstance(frame.get("version"), int):
                version = frame["version"]
            hidden = states[version].hidden_cards(seat)
            leaked = card_codes(frame) & hidden
            assert not leaked, f"seat {seat} saw {sorted(leaked)} at version {version}: {frame}"
            scanned += 1
    return scanned
