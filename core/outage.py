"""An unavailable database (PostgreSQL restarting, crashed, failing over) is an expected condition:
each process says so in one warning per episode, and in one line when it answers again, instead
of a traceback for every page, task, socket and heartbeat that met it. So is Redis restarting
for the Celery processes (beat could not send a sweep, the worker lost its broker): one warning
per episode there too (the channel layer of the web processes keeps its own account of a Redis
outage, ``core.layers``).

An episode opens at a failure and closes once ``DATABASE_OUTAGE_QUIET_SECONDS`` pass without
another, so the connections that broke during it and fail at their next use, after the database
is back, belong to it too. What is not a lost connection (a lock timeout, which the table socket
answers "busy"; a constraint violation; a bug) is never taken for one: it raises and is logged as
before.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import psycopg
from django.conf import settings
from django.db import Error as DatabaseError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

# SQLSTATEs of a server that is going away or not back yet, rather than one that refused a
# statement: class 08 (the connection), and an administrator's or a crash's shutdown, or a server
# still starting up (57P01-57P03).
_CONNECTION_CLASS = "08"
_SHUTDOWN_STATES = frozenset({"57P01", "57P02", "57P03"})


def is_connection_failure(error: BaseException) -> bool:
    """Whether ``error`` says the database could not be reached or dropped the connection.

    Django keeps psycopg's error as the cause of its own. psycopg reports a refused, lost or
    closed connection as an ``OperationalError`` without a SQLSTATE (no server answered) or
    with one of the states above; everything the server answered with a statement's own SQLSTATE
    (55P03 lock timeout, 40P01 deadlock, 23505 unique violation) is not an outage. psycopg's
    ``InterfaceError`` is a client's misuse (a closed cursor, a missing adapter): a bug."""
    origin = error if isinstance(error, psycopg.Error) else error.__cause__
    if not isinstance(origin, psycopg.OperationalError):
        return False
    state = origin.sqlstate
    return state is None or state.startswith(_CONNECTION_CLASS) or state in _SHUTDOWN_STATES


def is_broker_failure(error: BaseException) -> bool:
    """Whether ``error`` (or what it was raised from) says Redis could not be reached: redis-py's
    and kombu's wrappers around a refused, reset or timed-out connection."""
    seen = 0
    current: BaseException | None = error
    while current is not None and seen < 5:
        if isinstance(current, RedisConnectionError | RedisTimeoutError | BrokerError):
            return True
        current = current.__cause__ or current.__context__
        seen += 1
    return False


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class Episodes:
    """The outages one process has seen. The clock is injected so the tests can move it."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, service: str = "PostgreSQL"
    ) -> None:
        self.clock = clock
        self.service = service
        self.lock = threading.Lock()
        self.started = 0.0  # the current episode's first failure
        self.last_failure: float | None = None
        self.answered = True  # since the current episode's first failure (or: no episode yet)

    def failed(self, error: BaseException) -> None:
        """A connection failure: the episode's first gets the warning, the rest nothing."""
        quiet = settings.DATABASE_OUTAGE_QUIET_SECONDS
        with self.lock:
            now = self.clock()
            opens = self.last_failure is None or now - self.last_failure > quiet
            if opens:
                self.started, self.answered = now, False
            self.last_failure = now
        if opens:
            logger.warning(
                "%s unavailable: %s; further failures are not logged until %g s pass without one",
                self.service,
                _first_line(error),
                quiet,
            )

    def connected(self) -> None:
        """A new connection was made: the first after an episode's first failure says so."""
        if self.answered:  # what nearly every connection sees: no lock taken
            return
        with self.lock:
            if self.answered:
                return
            self.answered = True
            seconds = self.clock() - self.started
        logger.info("%s answers again, %.1f s after the first failure", self.service, seconds)


_episodes = Episodes()
_broker_episodes = Episodes(service="Redis")


def database_unavailable(error: BaseException) -> None:
    """Note a connection failure (``is_connection_failure``): one warning per episode."""
    _episodes.failed(error)


def database_answered(**kwargs: Any) -> None:
    """``connection_created`` receiver (``core.apps``): the database is back."""
    _episodes.connected()


def ends_when_database_unavailable(task: Callable[P, T]) -> Callable[P, T | None]:
    """For a Celery task whose work a later run does anyway: meeting an unavailable database, it
    notes the outage and ends (returning None) rather than failing with a traceback."""

    @functools.wraps(task)
    def run(*args: P.args, **kwargs: P.kwargs) -> T | None:
        try:
            return task(*args, **kwargs)
        except DatabaseError as error:
            if not is_connection_failure(error):
                raise
            database_unavailable(error)
            return None

    return run


class OutageLogFilter(logging.Filter):
    """On the log handlers (``LOGGING``; the Celery processes' own, ``config.celery``): a record
    carrying a connection failure becomes the episode's one line. It catches what no edge of the
    site handles itself, wherever it is logged: Daphne's "Exception inside application", a
    heartbeat's or a middleware's failure, beat failing to send a sweep while Redis restarts."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is None:
            return True
        if is_connection_failure(error):
            database_unavailable(error)
            return False
        if is_broker_failure(error):
            _broker_episodes.failed(error)
            return False
        return True
