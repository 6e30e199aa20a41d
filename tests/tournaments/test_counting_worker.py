"""Counting an arena's tables in a real Celery worker process while passes run (issue 40 § 2),
on PostgreSQL and Redis. A match's end, here in the test process, enqueues its count and a pass
on the broker as a web process's would; a ``celery -A config worker`` started as
``scripts/serve.py`` starts it runs them. In the 24-player runs one count in four met a pass
holding the tournament's row, gave up ("succeeded … False") and was counted by the tick 15 s
later, after the player's next match, and the points followed the counting order: win, loss,
win, win scored 8 instead of 6.
"""

from __future__ import annotations

import os
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from config.celery import app
from games.models import Table
from scripts.serve import commands as serve_commands
from tests.support.ladder import committed
from tests.support.processes import CeleryProcess
from tournaments import pairing, selectors
from tournaments.models import Entrant, TournamentResult, TournamentTable
from tournaments.services.entries import tournament_join
from tournaments.services.running import arena_pass, tournament_start
from tournaments.services.ticks import tournaments_tick

from .test_running import arena, finish_by_forfeit, live_tables

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

WAIT_SECONDS = 30  # a task on a loaded 2-core machine; it takes well under a second idle
APP_NAME = "celery-under-test"


class Worker:
    """A worker on the test database and a queue of the test's own, as serve.py starts it."""

    def __init__(self, tmp_path) -> None:
        self.queue = f"count-{uuid.uuid4().hex[:8]}"
        db = connection.settings_dict
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        }
        env.update(
            DJANGO_SETTINGS_MODULE="tests.ladder.live_settings",
            DATABASE_URL=(
                f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                f"/{db['NAME']}"
            ),
            VAR_DIR=str(tmp_path / "var"),
            LADDER_TEST_QUEUE=self.queue,
            CHANNELS_PREFIX=self.queue,
        )
        self.process = CeleryProcess(env, tmp_path, "worker", *serve_commands(0)["worker"][4:])

    def log(self) -> str:
        return self.process.log.read_text(errors="replace")

    def lose_the_queue(self) -> None:
        """What was enqueued and not taken is gone (a broker lost with its queue)."""
        broker = redis.Redis.from_url(settings.REDIS_URL)
        for key in broker.keys(f"{self.queue}*"):
            broker.delete(key)

    def stop(self) -> None:
        self.process.stop()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name = %s",
                [APP_NAME],
            )


@contextmanager
def enqueued_to(queue: str) -> Iterator[None]:
    """What this process enqueues (a match's end: its count and a pass) goes to ``queue``, as
    a web process's tasks go to the worker (the test settings run them here, eagerly). Celery
    keeps the default queue it first sent to: forgotten before and after."""
    before = app.conf.task_always_eager, app.conf.task_default_queue
    app.conf.task_always_eager, app.conf.task_default_queue = False, queue
    vars(app.amqp).pop("default_queue", None)
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = before
        vars(app.amqp).pop("default_queue", None)


@pytest.fixture
def worker(tmp_path) -> Iterator[Worker]:
    running = Worker(tmp_path)
    try:
        with enqueued_to(running.queue):
            running.process.start()
            yield running
    finally:
        running.stop()
        running.lose_the_queue()
        redis.Redis.from_url(settings.REDIS_URL).delete(f"_kombu.binding.{running.queue}")


def eventually(check: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not check():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.1)


def counted(table: Table) -> bool:
    return TournamentTable.objects.get(table=table).counted


def next_table(tournament, after: Table) -> Table:
    """The table the players were paired at after ``after`` (by a pass in the worker)."""
    found: list[Table] = []

    def paired() -> bool:
        found[:] = [t for t in live_tables(tournament) if t.pk > after.pk]
        return bool(found)

    eventually(paired, f"a table after {after.pk}")
    return found[0]


@contextmanager
def a_pass_holding_the_event(tournament_id: int, monkeypatch) -> Iterator[None]:
    """A real arena pass, stopped while it chooses: it holds the tournament's row (``FOR NO KEY
    UPDATE``) until the block ends, as a pass over hundreds of players does for a while."""
    choosing, go_on = threading.Event(), threading.Event()
    pair_arena = pairing.pair_arena

    def slow_choice(players, seats):
        players = list(players)
        choosing.set()
        assert go_on.wait(WAIT_SECONDS * 2)
        return pair_arena(players, seats=seats)

    def run() -> None:
        try:
            while not choosing.is_set() and not go_on.is_set():
                arena_pass(tournament_id=tournament_id)  # [] while the worker's pass runs
                time.sleep(0.05)
        finally:
            connection.close()

    monkeypatch.setattr(pairing, "pair_arena", slow_choice)
    running = threading.Thread(target=run)
    running.start()
    try:
        assert choosing.wait(WAIT_SECONDS), "the pass holds the event's row"
        yield
    finally:
        go_on.set()
        running.join(WAIT_SECONDS * 2)
        monkeypatch.setattr(pairing, "pair_arena", pair_arena)


def started(players) -> tuple[object, Table]:
    tournament = arena()
    for player in players:
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    (table,) = live_tables(tournament)
    return tournament, table


def assert_scored_win_loss_win_win(tournament, alice, bob) -> None:
    """2 + 0 + 2 + 2 = 6 and on fire (counted in another order: 8 and the fire out)."""
    score = dict(Entrant.objects.filter(tournament=tournament).values_list("player_id", "score"))
    fire = dict(Entrant.objects.filter(tournament=tournament).values_list("player_id", "on_fire"))
    assert (score[alice.pk], fire[alice.pk]) == (6, True)
    assert (score[bob.pk], fire[bob.pk]) == (2, False)
    line = {
        row.player: [(m.points, m.doubled) for m in row.record.matches]
        for row in selectors.arena_table(tournament)
    }
    assert line[alice.pk][:4] == [(2, False), (0, False), (2, False), (2, False)]
    rows = TournamentResult.objects.filter(tournament=tournament, player=alice).order_by(
        "tournament_table__table__ended_at"
    )
    assert [(r.points, r.doubled) for r in rows] == line[alice.pk]


def test_a_count_racing_a_pass_that_holds_the_event_is_counted_at_once(
    alice, bob, worker, monkeypatch
):
    """The loss ends while a pass holds the tournament's row: the worker counts it then and
    there, not the tick 15 s later; the run is win, loss, win, win as played."""
    tournament, first = started([alice, bob])
    finish_by_forfeit(first, bob.pk)
    eventually(lambda: counted(first), "the first match counted by the worker")
    second = next_table(tournament, after=first)
    with a_pass_holding_the_event(tournament.pk, monkeypatch):
        finish_by_forfeit(second, alice.pk)
        eventually(lambda: counted(second), "the loss counted while the pass holds the event")
    assert not re.search(r"count_table\[[^\]]+\] succeeded in [\d.]+s: False", worker.log())
    third = next_table(tournament, after=second)
    finish_by_forfeit(third, bob.pk)
    eventually(lambda: counted(third), "the third match counted")
    fourth = next_table(tournament, after=third)
    finish_by_forfeit(fourth, bob.pk)
    eventually(lambda: counted(fourth), "the fourth match counted")
    assert_scored_win_loss_win_win(tournament, alice, bob)


def test_a_count_made_late_by_the_tick_scores_in_play_order(alice, bob, worker):
    """The loss's count task is lost (the worker down when the match ended, the queue lost
    with it): the players play on, the worker counts their next two matches, and the tick
    counts the loss after its grace, last. It is scored where it was played."""
    tournament, first = started([alice, bob])
    finish_by_forfeit(first, bob.pk)
    eventually(lambda: counted(first), "the first match counted by the worker")
    second = next_table(tournament, after=first)
    worker.process.stop()
    finish_by_forfeit(second, alice.pk)
    worker.lose_the_queue()
    worker.process.start()
    tournaments_tick()  # pairs them again; the loss is within its grace, not counted yet
    assert not counted(second)
    third = next_table(tournament, after=second)
    finish_by_forfeit(third, bob.pk)
    eventually(lambda: counted(third), "the third match counted by the worker")
    fourth = next_table(tournament, after=third)
    finish_by_forfeit(fourth, bob.pk)
    eventually(lambda: counted(fourth), "the fourth match counted by the worker")
    assert not counted(second)
    grace = timedelta(seconds=settings.TOURNAMENT_COUNT_GRACE_SECONDS + 1)
    assert tournaments_tick(now=timezone.now() + grace)["counted"] == 1
    assert counted(second)
    assert_scored_win_loss_win_win(tournament, alice, bob)
