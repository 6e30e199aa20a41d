"""How many PostgreSQL connections a process holds, and which of its threads hold them
(docs/deploy.md § Connections).

Under ASGI each page runs on a thread of its own (asgiref's thread-sensitive context), and a
connection per thread grew with every page, until PostgreSQL had none left for the worker. With
``DB_POOL_SIZE`` set (``DATABASES`` ``OPTIONS["pool"]``, Django's psycopg pool), a page takes a
connection from its process's pool and gives it back when it ends; it waits at most
``DB_POOL_TIMEOUT`` for one, then answers with the site's 503 page.

Two kinds of threads are not the pages':

- the sockets' database threads (``core.pool``, ``LIVE_DB_THREADS`` a web process) live as long
  as their process: each keeps a connection of its own outside the pool (``own_connection``), as
  before the pool, so a crowd of pages never makes a move wait for one;
- the worker's threads (its concurrency, and the arena's seating threads) take theirs from the
  pool, which is made as large as they are (``pool_as_large_as_the_worker``): its tasks never wait
  for a connection, and reuse them instead of opening one a task (Celery closes the connection
  after each task).
"""

from __future__ import annotations

import logging
import os
from typing import Any

from celery.signals import worker_init
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import load_backend

logger = logging.getLogger(__name__)


def pool_options() -> dict[str, Any] | None:
    """The pool's options (``DATABASES["default"]["OPTIONS"]["pool"]``), None without a pool."""
    pool = connections.settings[DEFAULT_DB_ALIAS].get("OPTIONS", {}).get("pool")
    return pool or None


def own_connection() -> None:
    """Give the calling thread a connection of its own, outside the pool (a thread that lives
    as long as its process: a socket's database thread). Without a pool, nothing changes."""
    shared = connections[DEFAULT_DB_ALIAS].settings_dict
    if not shared.get("OPTIONS", {}).get("pool"):
        return
    own = {
        **shared,
        "OPTIONS": {key: value for key, value in shared["OPTIONS"].items() if key != "pool"},
        # Kept as the pages' connections were before the pool: replaced past this age, and
        # checked only after an error (a health check on every use costs a move a round trip).
        "CONN_MAX_AGE": settings.DB_CONN_MAX_AGE,
        "CONN_HEALTH_CHECKS": False,
    }
    connections[DEFAULT_DB_ALIAS] = load_backend(own["ENGINE"]).DatabaseWrapper(
        own, DEFAULT_DB_ALIAS
    )


def worker_pool_size(concurrency: int, pool_cls: object) -> int:
    """The connections a worker's tasks may hold at once: one a thread (a prefork child runs
    one task at a time), and one for each arena seating thread."""
    name = pool_cls if isinstance(pool_cls, str) else getattr(pool_cls, "__module__", "")
    tasks = 1 if "prefork" in str(name) else concurrency
    return tasks + settings.TOURNAMENT_SEAT_THREADS


@worker_init.connect
def pool_as_large_as_the_worker(sender: Any = None, **kwargs: Any) -> None:
    """In the Celery worker (``CELERY_IMPORTS``), before its first connection: the pool holds as
    many connections as its threads can use at once, whatever ``DB_POOL_SIZE`` (the pages')."""
    options = pool_options()
    if options is None or sender is None:
        return
    concurrency = sender.concurrency  # "auto" is resolved only after worker_init
    threads = concurrency if isinstance(concurrency, int) and concurrency > 0 else os.cpu_count()
    size = worker_pool_size(threads or 1, sender.pool_cls)
    options["max_size"] = size
    options["min_size"] = min(options.get("min_size", 0), size)
    logger.info(
        "Database pool: at most %d connections (%d for tasks, %d arena seating threads)",
        size,
        size - settings.TOURNAMENT_SEAT_THREADS,
        settings.TOURNAMENT_SEAT_THREADS,
    )
