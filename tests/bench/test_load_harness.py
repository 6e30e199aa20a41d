"""The load bench's harness (``bench/load/``, ``make bench``) at a tiny scale against real
processes, so that its code cannot rot between benchmark runs. Nothing here is timed: the
figures are the benchmark's to report, never a test's to assert."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys

import pytest
from django.db import connection

from bench.load.server import SERVER_APP_NAME
from tests.reliability.conftest import ROOT

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def _end_bench_sessions() -> None:
    """The bench's server processes are gone; close any database session they left."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [SERVER_APP_NAME],
        )


@pytest.mark.slow
def test_the_load_bench_plays_two_tables_on_real_servers_and_checks_what_it_saw(tmp_path):
    """Pass: ``python -m bench.load`` at two tables, on this run's PostgreSQL database and Redis,
    starts serve.py's processes, measures both echoes, an open-loop step, a closed-loop step,
    the sync-spam step, the slow-reader, idle-tables, connection-storm and two-node phases,
    ends every match, finds the ledger clean, no hidden card in any frame and nothing wrong in
    the server logs, writes its JSON, and stops every process it started."""
    db = connection.settings_dict
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(
        {
            "DATABASE_URL": (
                f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                f"/{db['NAME']}"
            ),
            "CHANNELS_PREFIX": f"{os.environ.get('CHANNELS_PREFIX', 'test')}-harness",
        }
    )
    output = tmp_path / "latest.json"
    command = [
        sys.executable,
        "-m",
        "bench.load",
        *("--closed-steps", "2", "--closed-seconds", "2"),
        *("--open-steps", "2", "--open-seconds", "2", "--period", "1", "--sockets", "6"),
        *("--echo-clients", "4", "--echo-seconds", "0.5", "--output", str(output)),
        *("--slow-tables", "2", "--slow-readers", "2"),
        *("--pool-players", "4", "--pool-window", "1", "--pools", "japanese_joker/fast/0/casual"),
        *("--arena-players", "0"),  # a minute at least: run by hand (docs/performance.md)
        *("--sync-spam-tables", "2", "--idle-tables", "3", "--idle-beside", "2"),
        *("--nodes", "2", "--node-tables", "2"),
        *("--storm-tables", "2", "--storm-sockets", "4", "--storm-seconds", "1"),
    ]
    bench = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = bench.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        # The bench and every server process it started (each in a session of its own): one
        # left running, as a plain timeout left them, starved the tests after this one.
        os.killpg(bench.pid, signal.SIGKILL)
        stdout, stderr = bench.communicate()
        children = [
            pid
            for log in (output.with_name(f"latest-server{node}.log") for node in ("", "-node2"))
            for pid in _pids(log.read_text() if log.exists() else "").values()
        ]
        # serve.py first (the children's parent), or it starts them again.
        parents = {_parent(child) for child in children} - {None, 1, os.getpid()}
        for pid in [*parents, *children]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
        pytest.fail(f"the bench took over 240 s:\n{stdout}{stderr}")
    finally:
        _end_bench_sessions()
    assert bench.returncode == 0, stdout + stderr
    run = json.loads(output.read_text())

    assert run["server"]["web_processes"] == (os.cpu_count() or 1)  # serve.py's default
    assert run["echo"]["round_trips"] > 0 and run["group_echo"]["round_trips"] > 0
    (open_step,) = run["open_loop"]["steps"]
    assert open_step["tables"] == 2 and open_step["moves"] > 0
    assert run["open_loop"]["sockets"]["peak"] >= 6  # the socket floor topped the tables up
    (closed_step,) = run["closed_loop"]
    assert closed_step["moves"] > 0 and closed_step["ack"]["p50_ms"] is not None
    assert closed_step["cpu_ms_per_move"]["postgres"] > 0  # PostgreSQL's processes were found
    assert not closed_step["errors"] and not open_step["errors"]
    assert run["after"]["hidden_cards"]["frames_scanned"] > 0
    slow = run["slow_readers"]  # both windows measured, and the non-readers really sent
    assert slow["alone"]["moves"] > 0 and slow["beside_non_readers"]["moves"] > 0
    assert slow["syncs_sent"] > 0
    assert run["pools"]["tables_started"] == 2  # quick play: four players, two tables
    (spam,) = run["sync_spam"]  # clients that sync on every early ack: they did, and played
    assert spam["moves"] > 0 and spam["syncs"] > 0
    idle = run["idle"]  # a waiting room, a table nobody moves at, one whose players left
    assert idle["idle"] == {"waiting_rooms": 1, "sitting": 1, "gone": 1}
    assert idle["alone"]["moves"] > 0 and idle["beside_idle"]["moves"] > 0
    storm = run["storm"]  # two tables played while two more tables' four sockets connect
    assert storm["sockets"] == 4 and storm["table_connect"]["count"] == 2
    assert storm["during_storm"]["moves"] > 0 and not storm["connect_failures"]
    nodes = run["nodes"]  # one node, then each table's two seats on two nodes
    assert nodes["one_node"]["moves"] > 0 and nodes["two_nodes"]["moves"] > 0
    assert nodes["sockets_per_node"][0] > 0 and nodes["sockets_per_node"][1] > 0
    failed = [check for check in run["checks"] if not check["passed"]]
    assert not failed, failed
    assert {floor["floor"].split()[0] for floor in run["floors"]} >= {"web", "capacity"}
    # Issue 43 § 2: each phase's machine load, and its late moves beside the percentiles.
    busy = run["phase_busy_percent"]
    assert set(busy) == set(run["phase_seconds"]) and all(0 < pct <= 100 for pct in busy.values())
    late = open_step["move_to_last_seat"]
    assert late["over_1s"] >= late["over_3s"] >= 0 and late["max_ms"] >= late["p99_ms"]
    assert "machine busy a phase: " in stdout and "over 1 s / over 3 s" in stdout
    assert "Server stopped (serve.py exit code 0)" in stdout
    for node in ("", "-node2"):
        log = output.with_name(f"latest-server{node}.log").read_text()
        for name, pid in _pids(log).items():
            assert not os.path.exists(f"/proc/{pid}"), f"{name}{node} (pid {pid}) still runs"
    assert "worker: pid" not in output.with_name("latest-server-node2.log").read_text()


def _pids(log: str) -> dict[str, int]:
    pairs = (line.split(": pid ") for line in log.splitlines() if ": pid " in line)
    return {name: int(pid) for name, pid in pairs}


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None
