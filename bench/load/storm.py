"""The load bench's connection storm (issue 32, floor 3): many players arrive at once, and the
tables already being played must not feel it.

The open loop runs it once its step reaches ``--storm-tables`` (1,000) tables at human pace, that
step's window being their figure alone: the sockets of ``--storm-sockets`` ÷ 2 new started tables
(2,000 sockets) connect, paced evenly over ``--storm-seconds`` (30), as players opening their
table pages would, while the played tables keep their schedule. Those new tables then make the
open loop's next step (2,000 tables) without connecting again. A run whose open loop stops short
of that many tables runs the storm on tables of its own. The played tables' move → last seat is
measured over the storm, from its first connect until its last socket holds its first state; so
are the new sockets' connects (handshake to first ``state``). Floor: the played tables' p99
during the storm at most ``FLOOR_STORM_P99_MS``, every new socket connected."""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from bench.load.clients import LiveTable
from bench.load.data import Identity
from bench.load.phases import Run
from bench.load.sockets import Recorder, collector_paused
from bench.load.stats import CpuWindow, latency_summary

FLOOR_STORM_P99_MS = 250.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--storm-tables", type=int, default=1000, help="tables played through the storm"
    )
    parser.add_argument(
        "--storm-sockets", type=int, default=2000, help="new sockets (0: skip the phase)"
    )
    parser.add_argument(
        "--storm-seconds", type=float, default=30.0, help="the time over which they connect"
    )


def guests_needed(args: argparse.Namespace) -> int:
    return 2 * args.storm_tables + args.storm_sockets if args.storm_sockets else 0


async def storm_beside(
    run: Run, played: list[LiveTable], guests: list[Identity], alone: dict[str, Any]
) -> tuple[dict[str, Any], list[LiveTable]]:
    """The storm beside ``played`` (on their schedules, measured ``alone`` just before): the
    result, and the new tables whose sockets all connected, open and not moving yet."""
    args = run.args
    print(
        f"Connection storm: {args.storm_sockets} sockets within {args.storm_seconds:g} s beside "
        f"{len(played)} played tables",
        flush=True,
    )
    count = args.storm_sockets // 2
    pairs = [(guests.pop(), guests.pop()) for _ in range(count)]
    ids: list[int] = []
    for start in range(0, count, 250):
        ids += await run.tables(pairs[start : start + 250], stake=0)
    arriving = [
        LiveTable(run.bench, table_id, pair, closed_loop=False)
        for table_id, pair in zip(ids, pairs, strict=True)
    ]
    connects: list[float] = []
    arrived: list[LiveTable] = []
    failures_before = run.bench.connects["refused"] + run.bench.connects["dropped"]

    async def arrive(table: LiveTable, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        started = time.monotonic()
        try:
            await table.open()
        except Exception:  # counted by open_socket, or a first state that never came
            connects.append(float("inf"))
            await table.finish()
            return
        connects.append(time.monotonic() - started)
        arrived.append(table)

    recorder = Recorder()
    run.bench.recorder = recorder
    cpu = CpuWindow(run.cpu_groups)
    with collector_paused():
        first = time.monotonic() + 0.5
        recorder.window = (first, float("inf"))
        cpu.start()
        spacing = args.storm_seconds / max(1, len(arriving))
        await asyncio.gather(
            *(arrive(table, first + index * spacing) for index, table in enumerate(arriving))
        )
        storm_seconds = time.monotonic() - first
        recorder.window = (first, time.monotonic())
        spent = cpu.stop()
        await asyncio.sleep(1.0)  # the last moves of the window arrive
    unanswered = sum(
        1
        for table in played
        for started in table.pending.values()
        if recorder.counts(started) and time.monotonic() - started > 1.0
    )
    during = latency_summary(recorder.last_seat + [float("inf")] * unanswered)
    failures = run.bench.connects["refused"] + run.bench.connects["dropped"] - failures_before
    p99 = during["p99_ms"]
    result = {
        "tables": len(played),
        "sockets": 2 * len(arriving),
        "paced_over_s": args.storm_seconds,
        "storm_s": round(storm_seconds, 1),
        "connect_failures": failures,
        "table_connect": latency_summary(connects),
        "alone": alone,
        "during_storm": {"moves": len(recorder.last_seat), "move_to_last_seat": during},
        "web_cpu_s": round(spent["web"], 2),
        "passed": p99 is not None and p99 <= FLOOR_STORM_P99_MS and not failures,
    }
    print(
        f"  {len(played)} tables alone: p50 {alone['move_to_last_seat']['p50_ms']} ms p99 "
        f"{alone['move_to_last_seat']['p99_ms']} ms; during {result['sockets']} new sockets "
        f"(all in {storm_seconds:.1f} s; a table's two connected p50 "
        f"{result['table_connect']['p50_ms']} ms p99 {result['table_connect']['p99_ms']} ms, "
        f"{failures} failed): p50 {during['p50_ms']} ms p99 {p99} ms "
        f"{'pass' if result['passed'] else 'FAIL'}",
        flush=True,
    )
    return result, arrived


def storm_floor(result: dict[str, Any]) -> dict[str, Any]:
    storm = result["storm"]
    during = storm["during_storm"]["move_to_last_seat"]
    return {
        "floor": f"{storm['sockets']} sockets connecting within {storm['paced_over_s']:g} s keep "
        f"{storm['tables']} played tables' p99 move→last seat <= {FLOOR_STORM_P99_MS:g} ms",
        "value": f"{storm['alone']['move_to_last_seat']['p99_ms']} → {during['p99_ms']} ms; "
        f"connected in {storm['storm_s']} s, {storm['connect_failures']} failed",
        "passed": storm["passed"],
    }
