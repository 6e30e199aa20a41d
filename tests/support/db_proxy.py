"""A TCP forwarder between the servers a test starts and PostgreSQL, which the test can cut: an
outage of the database as the servers see it, without touching the shared PostgreSQL server."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Coroutine
from typing import Any


class DatabaseProxy:
    """Forwards ``127.0.0.1:<port>`` to the upstream address on a thread of its own.

    ``cut()`` is what a crashed or restarting PostgreSQL looks like from a client: every open
    connection drops at once and new ones are refused; ``restore()`` accepts again on the same
    port.
    """

    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port: int = probe.getsockname()[1]
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.AbstractServer | None = None
        self.links: set[asyncio.StreamWriter] = set()

    def start(self) -> DatabaseProxy:
        self.thread.start()
        self.restore()
        return self

    def restore(self) -> None:
        self._call(self._listen())

    def cut(self) -> None:
        self._call(self._cut())

    def stop(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    def _call(self, coroutine: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=10)

    async def _listen(self) -> None:
        if self.server is None:
            self.server = await asyncio.start_server(self._link, "127.0.0.1", self.port)

    async def _cut(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None
        for writer in self.links:
            writer.transport.abort()
        self.links.clear()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        self.links.update((writer, upstream_writer))
        await asyncio.gather(
            self._pipe(reader, upstream_writer), self._pipe(upstream_reader, writer)
        )
        self.links.difference_update((writer, upstream_writer))

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()
