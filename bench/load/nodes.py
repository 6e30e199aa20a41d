"""The load bench's two-node phase (issue 32, floor 7): the site on two machines, as
docs/deploy.md § Deploying on several machines runs it.

A second server instance starts on a port of its own (``scripts/serve.py --web-only``: its own
Daphne processes, as many as the first node's; the first node's worker and beat serve both),
sharing PostgreSQL and Redis with the first. ``--node-tables`` (500) tables are played at human
pace on the first node alone and measured; they end, and as many new tables are played with
each table's two seats on different nodes, so that every move's frames cross from one instance
to the other through Redis. Floor: the two-node p99 move → last seat is within
``FLOOR_NODES_P99_RATIO`` of the one-node p99 of the same phase; the run's after checks (every
match ended, the ledger, the hidden-card scan of every frame, the logs of both nodes) cover the
two-node tables too."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from bench.load.data import Identity
from bench.load.paced import PacedRun
from bench.load.server import Server, free_port

FLOOR_NODES_P99_RATIO = 1.5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--nodes", type=int, choices=(1, 2), default=2, help="2: also run the two-node phase"
    )
    parser.add_argument(
        "--node-tables", type=int, default=500, help="tables played on one node, then on two"
    )


def guests_needed(args: argparse.Namespace) -> int:
    return 4 * args.node_tables if args.nodes == 2 else 0


async def nodes_phase(run: PacedRun, guests: list[Identity]) -> dict[str, Any]:
    args = run.args
    print(f"Two nodes: {args.node_tables} tables on one node, then on two", flush=True)
    # One node's figure measured here, just before the two nodes': taken from the open loop's
    # step of as many tables, minutes earlier, the two runs that tried it gave x1.49 and x2.04,
    # where windows side by side gave x0.54-x1.25 (6 December).
    one_node = await _played(run, guests)
    second = Server(
        free_port(),
        run.server.log_path.with_name(run.server.log_path.stem + "-node2.log"),
        len(run.server.web_pids),
        web_only=True,
    )
    await asyncio.to_thread(second.start)
    run.bench.ports.append(second.port)
    before = run.bench.connects_per_node.copy()
    try:
        two_nodes = await _played(run, guests, extra_web=second.web_pids)
        run.check_alive()
        if not second.alive() or second.exits():
            raise RuntimeError(f"the second node stopped:\n{second.log()[-3000:]}")
    finally:
        run.bench.ports.pop()
        await asyncio.to_thread(second.stop)
    per_node = run.bench.connects_per_node - before
    p99_one = one_node["move_to_last_seat"]["p99_ms"]
    p99_two = two_nodes["move_to_last_seat"]["p99_ms"]
    ratio = p99_two / p99_one if p99_one and p99_two is not None else None
    result = {
        "tables": args.node_tables,
        "web_processes_per_node": len(run.server.web_pids),
        "one_node": one_node,
        "two_nodes": two_nodes,
        "sockets_per_node": [per_node[0], per_node[1]],
        "p99_ratio": round(ratio, 2) if ratio is not None else None,
        "second_node_log": second.log(),
        "passed": ratio is not None and ratio <= FLOOR_NODES_P99_RATIO,
    }
    print(
        f"  one node: p50 {one_node['move_to_last_seat']['p50_ms']} ms p99 {p99_one} ms; two "
        f"nodes ({per_node[0]} and {per_node[1]} sockets): p50 "
        f"{two_nodes['move_to_last_seat']['p50_ms']} ms p99 {p99_two} ms (x{result['p99_ratio']}) "
        f"{'pass' if result['passed'] else 'FAIL'}",
        flush=True,
    )
    return result


async def _played(
    run: PacedRun, guests: list[Identity], extra_web: list[int] | None = None
) -> dict[str, Any]:
    """``--node-tables`` new tables at human pace, measured in one window, then ended."""
    groups = run.cpu_groups
    if extra_web:  # the second node's web processes count with the first's
        run.cpu_groups = {**groups, "web": lambda: [*run.server.web_pids, *extra_web]}
    try:
        tables, schedulers = await run.scheduled_tables(run.args.node_tables, guests)
        window = await run.paced_window(tables)
        await run.stop_schedules(tables, schedulers)
        await run.finish_tables(tables)
    finally:
        run.cpu_groups = groups
    return {**window, "opened": len(tables)}


def nodes_floor(result: dict[str, Any]) -> dict[str, Any]:
    nodes = result["nodes"]
    return {
        "floor": f"two nodes keep p99 move→last seat within {FLOOR_NODES_P99_RATIO:g}x one "
        f"node's at {nodes['tables']} tables",
        "value": f"{nodes['one_node']['move_to_last_seat']['p99_ms']} → "
        f"{nodes['two_nodes']['move_to_last_seat']['p99_ms']} ms (x{nodes['p99_ratio']}); "
        f"sockets per node {nodes['sockets_per_node']}",
        "passed": nodes["passed"],
    }
