"""An unavailable database (core.outage): which errors are one, one line per episode, and what
the tasks, the sockets and the log handler do when they meet one. The pages' 503 is in
tests/config/test_error_pages.py, the whole site through a real outage in
tests/reliability/test_database_outage.py."""

from __future__ import annotations

import logging
import socket
import sqlite3
from types import SimpleNamespace

import psycopg
import pytest
from channels.testing import WebsocketCommunicator
from django import db
from django.contrib.auth import get_user_model
from django.db.backends.signals import connection_created

from accounts import sockets
from accounts import tasks as accounts_tasks
from config.asgi import application
from core import outage
from games import tasks as games_tasks
from ladder import tasks as ladder_tasks
from tournaments import tasks as tournament_tasks

ORIGIN = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
REFUSED = (
    'connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection refused'
    "\n\tIs the server running on that host and accepting TCP/IP connections?"
)


def django_error(cause: Exception, wrapper: type[Exception] = db.OperationalError) -> Exception:
    """What the ORM raises: Django's class, with psycopg's error as its cause."""
    error = wrapper(*cause.args)
    error.__cause__ = cause
    return error


def connection_refused() -> Exception:
    return django_error(psycopg.OperationalError(REFUSED))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def outage_lines(caplog) -> list[tuple[str, str]]:
    return [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "core.outage"]


# --- Which errors are an outage ---------------------------------------------------------------


def test_a_refused_connection_is_an_outage():
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(host="127.0.0.1", port=port, connect_timeout=5)
    assert outage.is_connection_failure(refused.value)
    assert outage.is_connection_failure(django_error(refused.value))


@pytest.mark.parametrize(
    "cause",
    [
        psycopg.OperationalError("consuming input failed: server closed the connection"),
        psycopg.OperationalError("the connection is closed"),
        psycopg.errors.ConnectionFailure("connection failure"),  # 08006
        psycopg.errors.AdminShutdown("terminating connection due to administrator command"),
        psycopg.errors.CrashShutdown("terminating connection because of crash"),
        psycopg.errors.CannotConnectNow("the database system is starting up"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_a_lost_connection_or_a_server_going_down_is_an_outage(cause):
    assert outage.is_connection_failure(django_error(cause))


@pytest.mark.parametrize(
    "error",
    [
        django_error(psycopg.errors.LockNotAvailable("canceling statement due to lock timeout")),
        django_error(psycopg.errors.DeadlockDetected("deadlock detected")),
        django_error(psycopg.errors.QueryCanceled("canceling statement due to user request")),
        django_error(psycopg.errors.UniqueViolation("duplicate key"), db.IntegrityError),
        django_error(psycopg.InterfaceError("the cursor is closed"), db.InterfaceError),
        django_error(sqlite3.OperationalError("database is locked")),
        ValueError("not a database error"),
    ],
    ids=lambda error: type(error.__cause__ or error).__name__,
)
def test_a_refused_statement_or_a_bug_is_not_an_outage(error):
    """A lock timeout keeps its "busy" answer; a constraint or a misuse raises as before."""
    assert not outage.is_connection_failure(error)


@pytest.mark.django_db
def test_a_real_constraint_violation_is_not_an_outage():
    get_user_model().objects.create(username="twice")
    with pytest.raises(db.IntegrityError) as violation:
        get_user_model().objects.create(username="twice")
    assert not outage.is_connection_failure(violation.value)


# --- One line per episode -----------------------------------------------------------------------


def test_an_episode_logs_its_first_failure_and_the_first_answer_once_each(settings, caplog):
    settings.DATABASE_OUTAGE_QUIET_SECONDS = 30
    clock = Clock()
    episodes = outage.Episodes(clock)
    caplog.set_level(logging.INFO, logger="core.outage")
    episodes.connected()  # no outage: nothing to say
    for _ in range(5):
        episodes.failed(connection_refused())
        clock.now += 1
    clock.now += 1
    episodes.connected()
    episodes.connected()
    clock.now += 20  # the connections broken in the outage fail once more: the same episode
    episodes.failed(django_error(psycopg.OperationalError("the connection is lost")))
    assert outage_lines(caplog) == [
        (
            "WARNING",
            'PostgreSQL unavailable: connection failed: connection to server at "127.0.0.1",'
            " port 5432 failed: Connection refused; further failures are not logged until 30 s"
            " pass without one",
        ),
        ("INFO", "PostgreSQL answers again, 6.0 s after the first failure"),
    ]


def test_an_episode_ends_after_the_quiet_seconds_without_a_failure(settings, caplog):
    settings.DATABASE_OUTAGE_QUIET_SECONDS = 30
    clock = Clock()
    episodes = outage.Episodes(clock)
    caplog.set_level(logging.INFO, logger="core.outage")
    for _ in range(10):  # failures 29 s apart: one long episode
        episodes.failed(connection_refused())
        clock.now += 29
    clock.now += 2  # 31 s after the last: a new episode
    episodes.failed(connection_refused())
    episodes.connected()
    assert [level for level, _ in outage_lines(caplog)] == ["WARNING", "WARNING", "INFO"]
    assert outage_lines(caplog)[-1][1].endswith(", 0.0 s after the first failure")


def test_the_warning_names_the_errors_first_line_only(settings, caplog):
    settings.DATABASE_OUTAGE_QUIET_SECONDS = 5
    outage.Episodes(Clock()).failed(psycopg.OperationalError(REFUSED))
    [(_, line)] = outage_lines(caplog)
    assert "Is the server running" not in line and "\n" not in line
    assert line.endswith("until 5 s pass without one")


def test_a_new_connection_ends_the_news_of_an_outage_in_this_process(outages, caplog):
    """core.apps connects ``connection_created``: the first connection made after a failure is
    the news that the database answers again."""
    caplog.set_level(logging.INFO, logger="core.outage")
    outage.database_unavailable(connection_refused())
    connection_created.send(sender=type(db.connection), connection=db.connection)
    assert [level for level, _ in outage_lines(caplog)] == ["WARNING", "INFO"]


# --- Tasks end quietly ------------------------------------------------------------------------


def _refused(*args, **kwargs):
    raise connection_refused()


def _violation(*args, **kwargs):
    raise django_error(psycopg.errors.UniqueViolation("duplicate key"), db.IntegrityError)


TASKS = {
    "expire_idle_tables": (games_tasks.expire_idle_tables, games_tasks, "tables_expire", ()),
    "play_bot_turn": (games_tasks.play_bot_turn, games_tasks.moves, "play_bot_turn", (1, 2)),
    "live_sweep": (games_tasks.live_sweep, games_tasks.presence, "live_sweep", ()),
    "rate_match": (ladder_tasks.rate_match, ladder_tasks.services, "match_rate", (1,)),
    "rate_unrated_matches": (
        ladder_tasks.rate_unrated_matches,
        ladder_tasks.services,
        "matches_rate_unrated",
        (),
    ),
    "clear_expired_sessions": (
        accounts_tasks.clear_expired_sessions,
        accounts_tasks.Session,
        "objects",
        (),
    ),
    "pools_sweep": (games_tasks.pools_sweep, games_tasks.pools, "pools_sweep", ()),
    "close_seasons": (
        ladder_tasks.close_seasons,
        ladder_tasks.season_services,
        "seasons_close",
        (),
    ),
    "tournaments_tick": (tournament_tasks.tick, tournament_tasks, "tournaments_tick", ()),
    "count_table": (tournament_tasks.count_table, tournament_tasks, "table_count", (1,)),
    "arena_pass": (tournament_tasks.arena_pass, tournament_tasks, "arena_pass_service", (1,)),
    "standings_held": (
        tournament_tasks.standings_held,
        tournament_tasks,
        "standings_held_service",
        (1,),
    ),
}


def _break(monkeypatch, name: str, failure) -> tuple:
    task, owner, attribute, args = TASKS[name]
    if name == "clear_expired_sessions":  # the task is its own query
        monkeypatch.setattr(owner, attribute, SimpleNamespace(filter=failure))
    else:
        monkeypatch.setattr(owner, attribute, failure)
    return task, args


@pytest.mark.parametrize("name", TASKS)
def test_every_task_ends_quietly_when_the_database_is_unavailable(
    name, monkeypatch, outages, caplog
):
    task, args = _break(monkeypatch, name, _refused)
    assert task.delay(*args).get() is None
    assert task.delay(*args).get() is None
    assert [level for level, _ in outage_lines(caplog)] == ["WARNING"]
    assert not any(record.exc_info for record in caplog.records)


@pytest.mark.parametrize("name", TASKS)
def test_a_task_still_fails_on_a_constraint_violation(name, monkeypatch, outages, caplog):
    task, args = _break(monkeypatch, name, _violation)
    with pytest.raises(db.IntegrityError):
        task.delay(*args).get()
    assert outage_lines(caplog) == []


# --- The log handler's net ----------------------------------------------------------------------


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []
        self.addFilter(outage.OutageLogFilter())

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_logged_connection_failure_becomes_the_episodes_line(outages, caplog):
    """What no edge of the site handles (a heartbeat's ``logger.exception``, Daphne's "Exception
    inside application") reaches the handler as the outage's line; anything else as before."""
    handler = Kept()
    logger = logging.getLogger("tests.outage.net")
    logger.addHandler(handler)
    logger.propagate = False  # caplog (on the root) sees only core.outage's line
    try:
        for _ in range(3):
            try:
                raise connection_refused()
            except db.OperationalError:
                logger.exception("Heartbeat failed")
        try:
            raise ValueError("a bug")
        except ValueError:
            logger.exception("Something else failed")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    assert [record.getMessage() for record in handler.records] == ["Something else failed"]
    assert handler.records[0].exc_info is not None
    assert [level for level, _ in outage_lines(caplog)] == ["WARNING"]


def test_the_sites_log_handler_carries_the_net():
    handlers = logging.getLogger().handlers
    assert any(isinstance(f, outage.OutageLogFilter) for h in handlers for f in h.filters)


# --- Sockets ------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the pool closes stale connections around the call
@pytest.mark.parametrize("path", ["/ws/ping/", "/ws/lobby/", "/ws/table/1/"])
async def test_a_socket_that_cannot_read_its_player_closes_with_4011(
    path, monkeypatch, outages, caplog
):
    """The handshake is accepted, then the socket closes with 4011 (the page reconnects with its
    backoff) and its consumer ends without an exception, having joined no group."""
    monkeypatch.setattr(sockets, "_identify", _refused)
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    closed = await communicator.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": sockets.CLOSE_UNAVAILABLE}
    await communicator.wait(timeout=10)
    assert [level for level, _ in outage_lines(caplog)] == ["WARNING"]


# --- Redis, for the Celery processes --------------------------------------------------------


def test_a_broker_that_cannot_be_reached_is_an_outage_of_redis_not_of_the_database():
    import kombu.exceptions
    import redis

    refused = redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")
    try:
        try:
            raise refused
        except redis.exceptions.ConnectionError as error:
            raise kombu.exceptions.OperationalError(str(error)) from error
    except kombu.exceptions.OperationalError as wrapped:
        beat_error = wrapped
    assert outage.is_broker_failure(beat_error) and outage.is_broker_failure(refused)
    assert not outage.is_connection_failure(beat_error)
    assert not outage.is_broker_failure(connection_refused())
    assert not outage.is_broker_failure(ConnectionResetError("a client went away"))


def test_beat_failing_to_send_a_sweep_while_redis_restarts_is_one_line(monkeypatch, caplog):
    """What Celery beat logs, with a traceback, every second it cannot send a sweep becomes one
    warning per episode, through the filter ``config.celery`` gives Celery's handlers."""
    import redis

    monkeypatch.setattr(outage, "_broker_episodes", outage.Episodes(service="Redis"))
    handler = Kept()
    handler.addFilter(outage.OutageLogFilter())
    logger = logging.getLogger("tests.outage.beat")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for _ in range(5):
            try:
                raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")
            except redis.exceptions.ConnectionError:
                logger.error("Message Error: Couldn't apply scheduled task", exc_info=True)
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    assert handler.records == []
    lines = outage_lines(caplog)
    assert len(lines) == 1 and lines[0][1].startswith("Redis unavailable: Error 111")
