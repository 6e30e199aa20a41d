"""Issue 40 § 4: the PostgreSQL connections a process holds are bounded by settings
(docs/deploy.md § Connections): pages take theirs from Django's pool (``DB_POOL_SIZE``, waiting at
most ``DB_POOL_TIMEOUT``), the sockets' threads keep their own, the worker's pool is as large as
its threads. The served site under a crowd: tests/reliability/test_connection_bound.py."""

from __future__ import annotations

import json
import threading
import time
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.postgresql.base import DatabaseWrapper
from django.test import Client

from core import connections as core_connections
from core.connections import own_connection, pool_as_large_as_the_worker

from .test_settings_and_deploy import _run

# The database settings base.py makes from each environment, in one interpreter.
POOL = """
import importlib, json, os
for name in ("DB_POOL_SIZE", "DB_POOL_TIMEOUT", "DB_CONN_MAX_AGE"):
    os.environ.pop(name, None)
from config.settings import base
seen = []
for env in ({}, {"DB_POOL_SIZE": "6", "DB_POOL_TIMEOUT": "2.5"}, {"DB_POOL_SIZE": "0"}):
    os.environ.update(env)
    db = importlib.reload(base).DATABASES["default"]
    seen.append({"pool": db["OPTIONS"].get("pool"), "max_age": db["CONN_MAX_AGE"]})
print(json.dumps(seen))
"""


def test_the_pool_comes_from_the_environment_and_zero_turns_it_off(tmp_path):
    """Pass: on PostgreSQL the pages' pool is on by default (4 connections, 5 s), sized by
    DB_POOL_SIZE and DB_POOL_TIMEOUT, with CONN_MAX_AGE 0 as Django's pool requires; with
    DB_POOL_SIZE=0 there is none and connections live DB_CONN_MAX_AGE (60 s) as before."""
    result = _run(
        ["-c", POOL],
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/anything",
        VAR_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    default, sized, off = json.loads(result.stdout)
    assert (default["pool"]["max_size"], default["pool"]["timeout"]) == (4, 5.0)
    assert default["max_age"] == 0
    assert (sized["pool"]["max_size"], sized["pool"]["timeout"]) == (6, 2.5)
    assert off == {"pool": None, "max_age": 60}


@pytest.fixture
def pooled():
    """The test database's settings as a production process has them: with the pages' pool
    (one connection, half a second's wait). The suite's own connections have none."""
    shared = connections.settings[DEFAULT_DB_ALIAS]
    pool = {"min_size": 0, "max_size": 1, "timeout": 0.5, "reconnect_timeout": 5.0}
    options = {**shared.get("OPTIONS", {}), "pool": pool}
    yield {**shared, "OPTIONS": options, "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": True}
    made = DatabaseWrapper._connection_pools.pop(DEFAULT_DB_ALIAS, None)
    if made is not None:
        made.close()


def _in_thread(work, *args):
    """``work`` on a thread of its own (a connection of its own); what it returned or raised."""
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["value"] = work(*args)
        except Exception as error:
            outcome["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=60)
    return outcome


def _use_pooled(pooled: dict) -> None:
    connections[DEFAULT_DB_ALIAS] = DatabaseWrapper(pooled, DEFAULT_DB_ALIAS)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_page_that_waits_out_the_pool_answers_503_and_the_next_one_200(pooled):
    """Pass: while another thread holds the pool's one connection, a page waits the pool's
    timeout (0.5 s), not for ever, and answers 503 with the site's page; once the connection
    is back, the next page answers 200."""
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        _use_pooled(pooled)
        connections[DEFAULT_DB_ALIAS].ensure_connection()
        taken.set()
        release.wait(timeout=30)

    def page() -> tuple[int, str, float]:
        _use_pooled(pooled)
        started = time.monotonic()
        answer = Client().get("/")
        return answer.status_code, answer.content.decode(), time.monotonic() - started

    holder = threading.Thread(target=lambda: _in_thread(hold))
    holder.start()
    assert taken.wait(timeout=30)
    try:
        status, html, took = _in_thread(page)["value"]
    finally:
        release.set()
        holder.join(timeout=30)
    assert status == 503 and "Back in a moment" in html
    assert 0.4 < took < 5
    assert _in_thread(page)["value"][0] == 200


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_socket_thread_keeps_a_connection_of_its_own_outside_the_pool(pooled):
    """Pass: a thread that calls own_connection (core.pool's socket threads do) connects
    without the pool, kept DB_CONN_MAX_AGE and with no health check on each use, while the
    pool's one connection is held elsewhere."""

    def socket_thread() -> tuple[object, int, bool, int]:
        _use_pooled(pooled)  # what a thread of a production process starts with
        own_connection()
        wrapper = connections[DEFAULT_DB_ALIAS]
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
            one = cursor.fetchone()[0]
        settings_dict = wrapper.settings_dict
        return wrapper.pool, settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"], one

    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        _use_pooled(pooled)
        connections[DEFAULT_DB_ALIAS].ensure_connection()
        held.set()
        release.wait(timeout=30)

    holder = threading.Thread(target=lambda: _in_thread(hold))
    holder.start()
    assert held.wait(timeout=30)
    try:
        outcome = _in_thread(socket_thread)
    finally:
        release.set()
        holder.join(timeout=30)
    assert outcome.get("value") == (None, settings.DB_CONN_MAX_AGE, False, 1), outcome


def test_the_workers_pool_is_as_large_as_its_threads(monkeypatch):
    """Pass: in the Celery worker (worker_init) the pool holds one connection a task thread and
    one a seating thread, whatever DB_POOL_SIZE; a prefork child runs one task at a time."""
    seats = settings.TOURNAMENT_SEAT_THREADS
    for pool_cls, concurrency, size in (("threads", 8, 8 + seats), ("prefork", 4, 1 + seats)):
        pool = {"min_size": 0, "max_size": 4}
        monkeypatch.setattr(core_connections, "pool_options", lambda pool=pool: pool)
        pool_as_large_as_the_worker(SimpleNamespace(concurrency=concurrency, pool_cls=pool_cls))
        assert pool["max_size"] == size
    from config.celery import app

    assert "core.connections" in app.conf.imports  # imported before worker_init is sent
