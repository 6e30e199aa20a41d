"""The load bench's command (``main``): it starts the server, runs the phases in order, checks
what the run left, judges the floors and prints the summary."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from bench import load
from bench.load.arena import add_arguments as add_arena_arguments
from bench.load.arena import arena_phase
from bench.load.data import (
    audit_coins,
    cancel_waiting_rooms,
    end_leftovers,
    first_new_table,
    hidden_card_scan,
    make_guests,
    make_users,
)
from bench.load.floors import after_checks, floors, ratios
from bench.load.idle import add_arguments as add_idle_arguments
from bench.load.idle import guests_needed, idle_phase
from bench.load.nodes import add_arguments as add_node_arguments
from bench.load.nodes import guests_needed as nodes_guests
from bench.load.nodes import nodes_phase
from bench.load.paced import PacedRun
from bench.load.phases import FLOOR_SOCKETS
from bench.load.pools import add_arguments as add_pool_arguments
from bench.load.pools import pool_phase
from bench.load.server import (
    ROOT,
    Server,
    configure_environment,
    ensure_database,
    free_port,
    setup_django,
)
from bench.load.sockets import Bench
from bench.load.stats import busy_share, cpu_model, load_average, machine_ticks
from bench.load.storm import add_arguments as add_storm_arguments
from bench.load.storm import guests_needed as storm_guests

RESULTS = ROOT / "bench" / "results"
T = TypeVar("T")


def server_log_problems(log: str) -> dict[str, Any]:
    lines = log.splitlines()
    bad = [
        line for line in lines if "Traceback" in line or re.search(r"\b(ERROR|CRITICAL)\b", line)
    ]
    return {
        "tracebacks": sum("Traceback" in line for line in lines),
        "error_lines": len(bad),
        "warnings": sum(" WARNING " in line for line in lines),
        "first": bad[:10],
    }


def slow_moves(summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per phase, the moves whose last seat heard of them after 1 s and after 3 s, and the
    slowest: every ``move_to_last_seat`` figure the phase recorded, at any depth."""

    def figures(node: Any) -> Iterator[dict[str, Any]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "move_to_last_seat" and isinstance(value, dict) and "over_1s" in value:
                    yield value
                else:
                    yield from figures(value)
        elif isinstance(node, list):
            for value in node:
                yield from figures(value)

    slow: dict[str, dict[str, Any]] = {}
    for phase in summary.get("phase_seconds", {}):
        found = list(figures(summary.get(phase)))
        if found:
            slowest = [f["max_ms"] for f in found if f.get("max_ms") is not None]
            slow[phase] = {
                "over_1s": sum(f["over_1s"] for f in found),
                "over_3s": sum(f["over_3s"] for f in found),
                "max_ms": max(slowest) if slowest else None,
            }
    return slow


async def run_phases(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    from django.db import close_old_connections

    bench = Bench(server.port, args.seed)
    run = PacedRun(args, server, bench)
    result: dict[str, Any] = {}
    seconds: dict[str, float] = {}  # each phase's length: the run's time budget, read per phase
    busy: dict[str, float] = {}  # the machine's load in each phase: a latency means more below 70 %
    result["phase_seconds"] = seconds
    result["phase_busy_percent"] = busy

    async def timed(name: str, phase: Awaitable[T]) -> T:
        started, ticks = time.monotonic(), machine_ticks()
        try:
            return await phase
        finally:
            seconds[name] = round(time.monotonic() - started, 1)
            busy[name] = busy_share(ticks, machine_ticks())

    watchdog = asyncio.ensure_future(run.watchdog())
    try:
        first_table = await run.in_db(first_new_table)
        # Enough for the largest step, the socket floor, and tables that failed to open.
        need_guests = 2 * max(max(args.open_steps, default=0), (args.sockets + 1) // 2) * 11 // 10
        need_guests += 2 * args.slow_tables + guests_needed(args) + nodes_guests(args)
        need_guests += storm_guests(args)
        guests = await timed("guests", run.in_db(make_guests, need_guests, run.tag))
        users = await timed(
            "users",
            run.in_db(make_users, 2 * (sum(args.closed_steps) + args.sync_spam_tables), run.tag),
        )
        # Echo baselines.
        print("Echo baselines", flush=True)
        echo = await timed(
            "echo", run.echo("/ws/bench/echo/", args.echo_clients, args.echo_seconds)
        )
        print(
            f"  echo:       {echo['round_trips_per_s']:8.1f} round trips/s, p50 "
            f"{echo['p50_ms']} ms, p99 {echo['p99_ms']} ms",
            flush=True,
        )
        group = await timed(
            "group_echo", run.echo("/ws/bench/group/", args.echo_clients, args.echo_seconds)
        )
        print(
            f"  group echo: {group['round_trips_per_s']:8.1f} round trips/s, p50 "
            f"{group['p50_ms']} ms, p99 {group['p99_ms']} ms",
            flush=True,
        )
        result["echo"] = echo
        result["group_echo"] = group
        print(f"Human pace, open loop: one move per table every {args.period:g} s", flush=True)
        result["open_loop"] = await timed("open_loop", run.open_loop(guests))
        print("Closed loop: every seat moves as soon as it is to act", flush=True)
        closed = run.closed_loop(users, args.closed_steps)
        result["closed_loop"] = await timed("closed_loop", closed)
        if args.sync_spam_tables:
            print("Sync spam: the closed loop, clients syncing on every early ack", flush=True)
            result["sync_spam"] = await timed(
                "sync_spam", run.closed_loop(users, [args.sync_spam_tables], sync_spam=True)
            )
        if args.slow_readers:
            print(
                f"Slow readers: {args.slow_readers} sockets that send sync 8/s and never read",
                flush=True,
            )
            result["slow_readers"] = await timed("slow_readers", run.slow_readers(guests))
        if args.idle_tables:
            result["idle"] = await timed("idle", idle_phase(run, guests))
        if args.storm_sockets:
            result["storm"] = run.storm or await timed("storm", run.storm_apart(guests))
        if args.nodes == 2:
            result["nodes"] = await timed("nodes", nodes_phase(run, guests))
        if args.pool_players:
            print(
                f"Quick play: {args.pool_players} players join pools within {args.pool_window:g} s",
                flush=True,
            )
            result["pools"] = await timed("pools", pool_phase(run, group))
        if args.arena_players:
            print(
                f"Arena: {args.arena_players} players for {args.arena_minutes} minutes", flush=True
            )
            result["arena"] = await timed("arena", arena_phase(run))
        run.check_alive()
        print("After the run", flush=True)
        after_started, after_ticks = time.monotonic(), machine_ticks()
        result["after"] = {
            "matches": await run.in_db(end_leftovers, first_table),
            "audit_coins": await run.in_db(audit_coins),
            "hidden_cards": await run.in_db(hidden_card_scan, bench.frames),
            "socket_closes": dict(bench.closes),
        }
        seconds["after"] = round(time.monotonic() - after_started, 1)
        busy["after"] = busy_share(after_ticks, machine_ticks())
    finally:
        watchdog.cancel()
        await run.in_db(close_old_connections)
        run.db.shutdown(wait=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load",
        description=load.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--closed-steps", type=int, nargs="*", default=[50, 200])
    parser.add_argument("--closed-seconds", type=float, default=8.0)
    parser.add_argument("--open-steps", type=int, nargs="*", default=[100, 250, 500, 1000, 2000])
    parser.add_argument("--open-seconds", type=float, default=9.0)
    parser.add_argument("--period", type=float, default=3.0, help="seconds between a table's moves")
    parser.add_argument(
        "--sockets", type=int, default=FLOOR_SOCKETS, help="sockets that must connect at once"
    )
    parser.add_argument(
        "--open-budget",
        type=float,
        default=150.0,
        help="seconds by which the open loop ends: no step starts that would end later, "
        "judged by the last step's connection rate (default 150)",
    )
    parser.add_argument("--slow-tables", type=int, default=100)
    parser.add_argument(
        "--sync-spam-tables", type=int, default=50, help="closed-loop tables of sync spammers"
    )
    parser.add_argument(
        "--slow-readers", type=int, default=10, help="non-reading sockets (0: skip the phase)"
    )
    add_pool_arguments(parser)
    add_arena_arguments(parser)
    add_idle_arguments(parser)
    add_storm_arguments(parser)
    add_node_arguments(parser)
    parser.add_argument("--echo-clients", type=int, default=32)
    parser.add_argument("--echo-seconds", type=float, default=4.0)
    parser.add_argument(
        "--web-processes",
        type=int,
        default=None,
        help="Daphne processes (default: serve.py's, one per core)",
    )
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--output", type=Path, default=RESULTS / "latest.json")
    args = parser.parse_args(argv)

    started = time.monotonic()
    load_before = load_average()
    var_dir = tempfile.mkdtemp(prefix="joker-bench-")
    configure_environment(var_dir)
    ensure_database(os.environ["DATABASE_URL"])
    setup_django()
    from django.core.management import call_command

    call_command("migrate_all", verbosity=0)
    leftovers = end_leftovers()
    if leftovers["cancelled_by_bench"]:
        print(f"Ended {leftovers['cancelled_by_bench']} matches an interrupted run left.")
    rooms = cancel_waiting_rooms()
    if rooms:
        print(f"Cancelled {rooms} open tables an earlier run left.")
    log_path = args.output.with_name(args.output.stem + "-server.log")
    server = Server(free_port(), log_path, args.web_processes)

    def interrupted(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    status = 0
    result: dict[str, Any] = {}
    try:
        server.start()
        print(
            f"Server: {', '.join(f'{n} {p}' for n, p in server.pids.items())} on port "
            f"{server.port}; load average {load_before}",
            flush=True,
        )
        time.sleep(1.0)
        result = asyncio.run(run_phases(args, server))
    except KeyboardInterrupt:
        print("Interrupted: stopping the server.", flush=True)
        status = 130
    except Exception as error:  # the harness or the server broke: say so, stop everything
        import traceback

        traceback.print_exc()
        print(f"The bench broke: {error}", flush=True)
        status = 1
    finally:
        code = server.stop()
        print(f"Server stopped (serve.py exit code {code}).", flush=True)
    if status:
        return status

    second_node_log = result.get("nodes", {}).pop("second_node_log", "")
    log = server_log_problems(server.log() + second_node_log)
    summary = {
        "command": "make bench (python -m bench.load " + " ".join(argv or sys.argv[1:]) + ")",
        "machine": {
            "cores": os.cpu_count(),
            "cpu": cpu_model(),
            "load_average_before": load_before,
            "load_average_after": load_average(),
        },
        "server": {"web_processes": len(server.web_pids), "settings": "config.settings.bench"},
        **result,
        "ratios": ratios(result),
        "server_log": log,
        "seconds": round(time.monotonic() - started, 1),
    }
    summary["floors"] = floors(result)
    summary["checks"] = after_checks(result, log)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(summary, indent=2, default=str) + "\n")
    print_summary(summary)
    print(f"Wrote {args.output} ({summary['seconds']} s in all).")
    return 0


def print_summary(summary: dict[str, Any]) -> None:
    r = summary["ratios"]
    print("Summary")
    if r:
        print(
            f"  closed-loop moves/s ÷ echo round trips/s: {r['closed_moves_per_echo_round_trip']}"
        )
        print(
            f"  web CPU per move {r['web_cpu_ms_per_move']} ms ÷ per echo "
            f"{r['web_cpu_ms_per_echo']} ms = {r['cpu_per_move_over_per_echo']}"
        )
        print(
            f"  web RSS per live table: {r['rss_kb_per_live_table']} KB "
            f"({r['rss_kb_per_added_table']} KB for each table past the first step)"
        )
    phases = summary.get("phase_seconds", {})
    print("  seconds a phase: " + ", ".join(f"{name} {took:g}" for name, took in phases.items()))
    busy = summary.get("phase_busy_percent", {})
    print("  machine busy a phase: " + ", ".join(f"{name} {pct:g} %" for name, pct in busy.items()))
    slow = slow_moves(summary)
    if slow:
        print(
            "  moves → last seat over 1 s / over 3 s (the slowest): "
            + ", ".join(
                f"{name} {late['over_1s']} / {late['over_3s']} ({late['max_ms']} ms)"
                for name, late in slow.items()
            )
        )
    for check in summary["floors"]:
        print(f"  [{'PASS' if check['passed'] else 'FAIL'}] {check['floor']}: {check['value']}")
    for check in summary["checks"]:
        print(f"  [{'PASS' if check['passed'] else 'FAIL'}] {check['check']}: {check['value']}")
