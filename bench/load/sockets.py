"""What every websocket client of the load bench shares: the recorder of a measured step, the
bench's state (``Bench``), the measuring window without the garbage collector, the handshake,
and the socket that never reads (``NonReader``)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import itertools
import random
import secrets
import socket
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any


class Recorder:
    """What one measured step saw."""

    def __init__(self) -> None:
        self.window = (float("inf"), float("-inf"))
        self.acks: list[float] = []
        self.last_seat: list[float] = []
        self.errors: Counter[str] = Counter()
        self.gaps = 0
        self.syncs = 0
        self.moves = 0
        self.rematches = 0
        self.not_ready = 0

    def counts(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]


class Bench:
    """State shared by every client: the server's address, the recorder, the frame log."""

    def __init__(self, port: int, seed: int) -> None:
        self.port = port
        # The nodes' ports (issue 32 § 7): a seat's socket goes to the node of its seat's number.
        self.ports = [port]
        self.connects_per_node = Counter[int]()
        self.rng = random.Random(seed)
        self.recorder = Recorder()
        self.ids = itertools.count(1)
        self.frames: dict[int, list[tuple[int, int | None, frozenset[str]]]] = {}
        self.connects = Counter[str]()
        self.live_sockets = 0
        self.peak_sockets = 0
        self.connect_failures: list[str] = []
        self.handshake_semaphore = asyncio.Semaphore(32)  # handshakes in flight
        self.closes: Counter[str] = Counter()

    def url(self, path: str, node: int = 0) -> str:
        return f"ws://127.0.0.1:{self.ports[node % len(self.ports)]}{path}"

    def origin_of(self, node: int) -> str:
        return f"http://127.0.0.1:{self.ports[node % len(self.ports)]}"

    @property
    def origin(self) -> str:
        return self.origin_of(0)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """A measuring window without the bench's own garbage collector. The bench keeps a thousand
    sockets and the cards of every frame it received (for the hidden-card scan), so one of its
    collections stalls every client for 30-380 ms, and that pause would be counted as the
    server's latency. The garbage made so far is collected before the window opens."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def open_socket(bench: Bench, path: str, cookie: str | None = None, node: int = 0) -> Any:
    """A websocket handshake as a browser makes it: the Origin header and the session cookie.
    Failures are counted (a refusal is an HTTP status, a dropped handshake anything else).
    ``node``: which of the bench's server instances (the first unless there are several)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    headers = {"Cookie": cookie} if cookie else {}
    async with bench.handshake_semaphore:
        try:
            ws = await connect(
                bench.url(path, node),
                origin=bench.origin_of(node),  # type: ignore[arg-type]
                additional_headers=headers,
                compression=None,
                ping_interval=None,
                open_timeout=15,
                close_timeout=5,
                max_size=2**20,
            )
        except InvalidStatus as error:
            bench.connects["refused"] += 1
            bench.connect_failures.append(f"refused: {error}")
            raise
        except Exception as error:
            bench.connects["dropped"] += 1
            bench.connect_failures.append(f"dropped: {type(error).__name__}: {error}")
            raise
    bench.connects["ok"] += 1
    bench.connects_per_node[node % len(bench.ports)] += 1
    bench.live_sockets += 1
    bench.peak_sockets = max(bench.peak_sockets, bench.live_sockets)
    return ws


class NonReader:
    """A socket that watches a table, sends ``sync`` eight times a second and never reads: its
    receive buffer as small as the kernel allows, its handshake read byte by byte."""

    def __init__(self, bench: Bench, table_id: int) -> None:
        self.bench = bench
        self.table_id = table_id
        self.writer: asyncio.StreamWriter | None = None
        self.sent = 0
        self.closed_after: float | None = None

    async def run(self, seconds: float) -> None:
        started = time.monotonic()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.bench.port))
        reader, self.writer = await asyncio.open_connection(sock=sock)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        self.writer.write(
            f"GET /ws/table/{self.table_id}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {self.bench.origin}\r\n\r\n".encode()
        )
        answer = b""
        while not answer.endswith(b"\r\n\r\n"):
            answer += await reader.readexactly(1)
        frame = b'{"type":"sync"}'
        mask = secrets.token_bytes(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(frame))
        message = bytes([0x81, 0x80 | len(frame)]) + mask + masked
        while time.monotonic() - started < seconds:
            try:
                self.writer.write(message)
                await self.writer.drain()
            except OSError:
                self.closed_after = time.monotonic() - started
                return
            self.sent += 1
            await asyncio.sleep(0.125)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()
