"""Personas and service checks shared by the whole suite.

alice, bob, carol and dave sit at tables; eve watches; ``guest`` plays without an account.
Tests marked ``postgres`` or ``redis`` need those services: they skip with a reason when the
environment does not point at them, and fail instead under ``REQUIRE_SERVICES=1`` (CI).
"""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts import services
from accounts.models import Player
from tests.support import failure_report
from tests.support.players import make_player

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def _missing(what: str) -> None:
    message = f"needs {what}"
    if REQUIRE_SERVICES:
        pytest.fail(f"{message}, and REQUIRE_SERVICES=1 says it must be there", pytrace=False)
    pytest.skip(message)


def _redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping())
    except redis.RedisError:
        return False


ARTIFACTS = Path(__file__).resolve().parent / "e2e" / "artifacts"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    failure_report.begin()
    if item.get_closest_marker("postgres"):
        engine = settings.DATABASES["default"]["ENGINE"]
        if engine != "django.db.backends.postgresql":
            _missing("PostgreSQL: set DATABASE_URL=postgres://…")
    if item.get_closest_marker("redis"):
        if not settings.REDIS_URL:
            _missing("Redis: set REDIS_URL=redis://…")
        elif not _redis_answers():
            _missing(f"Redis answering at {settings.REDIS_URL}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """A failed test's report ends with its servers' last lines and its pages' files."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.when in ("setup", "call"):
        report.sections.extend(failure_report.sections(item.nodeid, ARTIFACTS))


def _cost(item: pytest.Item) -> int:
    """A rough weight: a browser test or a ``slow`` one takes tens of seconds, the rest well
    under one."""
    return 30 if "e2e" in item.path.parts or item.get_closest_marker("slow") else 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The heaviest files first. The workers take whole files in this order (the Makefile turns
    off xdist's own order, most tests first), so the long browser files no longer come last
    while the other worker has nothing left to do."""
    weight: dict[object, int] = {}
    for item in items:
        weight[item.path] = weight.get(item.path, 0) + _cost(item)
    items.sort(key=lambda item: -weight[item.path])  # stable: a file's tests keep their order


@pytest.fixture(autouse=True, scope="session")
def _flush_survives_a_live_server():
    """Retry the flush that ends a ``transaction=True`` test when PostgreSQL picks it as a
    deadlock victim.

    The browser tests share the test database with a Daphne process whose sweeper and presence
    writes run on their own clock; the TRUNCATE can meet one of those transactions holding a
    table it needs next. The flush runs in one transaction, so a retry starts clean.
    """
    from django.db import OperationalError
    from django.db.backends.base.operations import BaseDatabaseOperations

    flush = BaseDatabaseOperations.execute_sql_flush

    def retrying(self, sql_list):
        for attempt in range(5):
            try:
                return flush(self, sql_list)
            except OperationalError as error:
                if "deadlock detected" not in str(error) or attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    patch = pytest.MonkeyPatch()
    patch.setattr(BaseDatabaseOperations, "execute_sql_flush", retrying)
    yield
    patch.undo()


@pytest.fixture(autouse=True, scope="session")
def _nobody_left_on_the_test_database(django_db_setup, django_db_blocker):
    """At the end of a worker's session, name whatever still holds its PostgreSQL test database
    (a server, worker or thread a test left behind), then end it: otherwise the database cannot
    be dropped and pytest says only that "1 other session" was there."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql" or not connection.settings_dict["NAME"].startswith(
        "test_"
    ):
        return  # a session none of whose tests used the database made no test database
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name, state, backend_start, left(query, 200)"
            " FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        )
        left = cursor.fetchall()
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    if left:
        warnings.warn(
            "sessions left on the test database at the end (application, state, since, "
            f"last query): {left}",
            stacklevel=1,
        )


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """A new channel layer per test: the Redis layer keeps locks and pools that belong to one
    event loop, and every async test runs in a loop of its own (a lock left by one test's
    consumer broke the next test's socket)."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _english_by_default():
    """Each test starts in English: a page rendered in Georgian must not leak into the next."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Rate-limit counters live in the cache; each test starts with none."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _tasks_may_wait_for_results() -> None:
    """Each test starts outside any task, as far as Celery knows.

    The suite runs tasks eagerly, and an eager task marks the whole process "inside a task" for
    its length, then puts the mark back as it found it. That mark is one per process, not per
    thread: two threads running tasks at once (a test's players entering four at a time) can put
    it back crossed and leave it set, and every later test of the process that waits for a
    task's result then fails with "Never call result.get() within a task!". A worker never runs
    tasks eagerly, so this is the suite's own state, cleared as Celery's embedded test worker
    clears it.
    """
    from celery.result import _set_task_join_will_block

    _set_task_join_will_block(False)


@pytest.fixture
def outages(monkeypatch):
    """A fresh record of database outages (core.outage): the test sees its own episode's line,
    whatever an earlier test of the process left open."""
    from core import outage

    episodes = outage.Episodes()
    monkeypatch.setattr(outage, "_episodes", episodes)
    return episodes


@pytest.fixture
def fast_clients(settings):
    """Test clients move as fast as the server answers: far above a person's rate limit."""
    settings.LIVE_RATE_PER_SECOND = 10_000
    settings.LIVE_RATE_BURST = 10_000


@pytest.fixture
def alice(db) -> Player:
    return make_player("alice")


@pytest.fixture
def bob(db) -> Player:
    return make_player("bob")


@pytest.fixture
def carol(db) -> Player:
    return make_player("carol")


@pytest.fixture
def dave(db) -> Player:
    return make_player("dave")


@pytest.fixture
def eve(db) -> Player:
    return make_player("eve")


@pytest.fixture
def guest_client(db) -> Client:
    """A browser that pressed "Play as guest"."""
    client = Client()
    response = client.post("/guest/")
    assert response.status_code == 302
    return client


@pytest.fixture
def guest(guest_client: Client) -> Player:
    return Player.objects.get(pk=guest_client.session[services.SESSION_GUEST_KEY])
