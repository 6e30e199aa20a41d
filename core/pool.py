"""Where a socket's database work runs: a bounded pool of threads (``LIVE_DB_THREADS``), so one
table waiting on a lock never holds up another table (the match row lock already orders each
table's writes). Whatever the work published on commit comes back to the async side, which sends
it: no database thread waits on the channel layer (docs/concurrency.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import close_old_connections
from django.utils import translation

from . import realtime
from .connections import own_connection

T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        # Each thread keeps a connection of its own, outside the pages' pool (core.connections).
        _executor = ThreadPoolExecutor(
            max_workers=settings.LIVE_DB_THREADS,
            thread_name_prefix="socket-db",
            initializer=own_connection,
        )
    return _executor


def _in_pool_thread(function: Callable[..., T]) -> Callable[..., tuple[T, list[realtime.Message]]]:
    """The work as a pool thread runs it: connections past their age are closed around it from
    inside the call, where the thread's connection lives (``CONN_MAX_AGE`` keeps the others)."""
    collect = realtime.collecting(function)

    def run(*args: Any, **kwargs: Any) -> tuple[T, list[realtime.Message]]:
        close_old_connections()
        try:
            return collect(*args, **kwargs)
        finally:
            close_old_connections()

    return run


async def run_db_unsent(
    function: Callable[..., T], *args: Any, **kwargs: Any
) -> tuple[T, list[realtime.Message]]:
    """Run ``function`` in the pool; return its result and what its commits published, unsent
    (for a socket that must send its own answer first).

    The hop is a future the pool thread settles, in the socket's language: asgiref's
    ``SyncToAsync`` around it (a copy of the context, a shield, two chained futures) was a tenth
    of a server process's time under load (make bench, py-spy). The work needs nothing else
    from the socket's context, and runs nothing async (its messages come back unsent)."""
    work = _in_pool_thread(function)
    if not settings.LIVE_DB_THREADS:  # no pool: Django's one shared thread (SQLite's tests)
        return await SyncToAsync(work, thread_sensitive=True)(*args, **kwargs)
    loop = asyncio.get_running_loop()
    done: asyncio.Future[tuple[T, list[realtime.Message]]] = loop.create_future()
    language = translation.get_language()

    def run() -> None:
        try:
            with translation.override(language):
                result = work(*args, **kwargs)
        except BaseException as error:  # handed to the socket, which decides
            loop.call_soon_threadsafe(_settle, done, None, error)
        else:
            loop.call_soon_threadsafe(_settle, done, result, None)

    _pool().submit(run)
    return await done


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.done():  # the socket closed while its work ran
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)


async def run_db(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` in the pool, then send what its commits published; return its result."""
    result, messages = await run_db_unsent(function, *args, **kwargs)
    await realtime.send_all(messages)
    return result
