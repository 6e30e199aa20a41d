"""The load bench's idle-tables phase (issue 32, floor 5): a real site has many open tables
nobody plays at, and they must not slow the tables that are played.

``--idle-beside`` tables (500) are played at human pace (their figure alone is the open loop's
step of as many tables, else measured here); then
``--idle-tables`` (350) more open beside them, in thirds: waiting rooms (one seat taken, its
socket open, nobody joins), tables whose two players sit with their sockets open and never move
(the turn clock runs out into the bank, the bank into automatic moves, three of those in a row
end the match), and tables whose players have gone (their sockets open, then close: the bank
drains and the seat forfeits). Their clocks are the Relaxed speed's, which the bench server runs
at ``IDLE_TURN_SECONDS`` and ``IDLE_BANK_SECONDS`` (server.py) so that all of that happens within
the measuring window, as it would at any moment on a site with that many such tables. Then the
played tables are measured again. Floor: their p99 move → last seat stays within
``FLOOR_P99_MS``. At the end the waiting rooms' creators cancel them: left open, they would
fill the lobby's first page for the phases after this one (every lobby snapshot dearer)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from functools import partial
from typing import Any

from bench.load.clients import LiveTable, gather_limited
from bench.load.data import Identity, cancel_waiting_rooms, waiting_tables
from bench.load.paced import PacedRun
from bench.load.phases import FLOOR_P99_MS
from bench.load.server import IDLE_TURN_SECONDS
from bench.load.sockets import open_socket


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--idle-tables", type=int, default=350, help="tables nobody plays at (0: skip the phase)"
    )
    parser.add_argument(
        "--idle-beside", type=int, default=500, help="tables played at human pace beside them"
    )


def guests_needed(args: argparse.Namespace) -> int:
    if not args.idle_tables:
        return 0
    return 2 * args.idle_beside + 2 * args.idle_tables


async def idle_phase(run: PacedRun, guests: list[Identity]) -> dict[str, Any]:
    args = run.args
    print(f"Idle tables: {args.idle_beside} played beside {args.idle_tables} idle", flush=True)
    played, schedulers = await run.scheduled_tables(args.idle_beside, guests)
    # Alone: the open loop's step of as many tables, else measured here.
    alone = run.open_windows.get(args.idle_beside) or await run.paced_window(played)
    third = args.idle_tables // 3
    rooms = [guests.pop() for _ in range(third)]
    waiting_ids = await run.in_db(waiting_tables, rooms)
    room_sockets = await gather_limited(
        [
            partial(open_socket, run.bench, f"/ws/table/{table_id}/", who.cookie)
            for table_id, who in zip(waiting_ids, rooms, strict=True)
        ],
        50,
    )
    sitting = await _started(run, guests, args.idle_tables - 2 * third)
    gone = await _started(run, guests, third)
    for table in gone:  # the players close their pages: absent from now on
        for client in table.clients:
            await client.close()
    await asyncio.sleep(IDLE_TURN_SECONDS)  # the first turn clocks run out from here on
    beside = await run.paced_window(played)
    await run.stop_schedules(played, schedulers)
    await run.finish_tables(played + sitting)
    for ws in room_sockets:
        with contextlib.suppress(Exception):
            await ws.close()
        run.bench.live_sockets -= 1
    await run.in_db(cancel_waiting_rooms, waiting_ids)
    p99 = beside["move_to_last_seat"]["p99_ms"]
    result = {
        "tables": len(played),
        "idle": {"waiting_rooms": len(waiting_ids), "sitting": len(sitting), "gone": len(gone)},
        "alone": alone,
        "beside_idle": beside,
        "passed": p99 is not None and p99 <= FLOOR_P99_MS,
    }
    print(
        f"  {len(played)} tables alone: p50 {alone['move_to_last_seat']['p50_ms']} ms p99 "
        f"{alone['move_to_last_seat']['p99_ms']} ms; beside {len(waiting_ids)} waiting rooms, "
        f"{len(sitting)} tables nobody moves at and {len(gone)} whose players left: p50 "
        f"{beside['move_to_last_seat']['p50_ms']} ms p99 {p99} ms ({beside['unanswered']} "
        f"unanswered, {beside['not_ready']} not ready, {beside['syncs']} syncs, errors "
        f"{beside['errors']}) {'pass' if result['passed'] else 'FAIL'}",
        flush=True,
    )
    return result


async def _started(run: PacedRun, guests: list[Identity], count: int) -> list[LiveTable]:
    """Started Relaxed tables, both sockets open (and never moving)."""
    pairs = [(guests.pop(), guests.pop()) for _ in range(count)]
    ids = await run.tables(pairs, stake=0, speed="relaxed")
    tables = [
        LiveTable(run.bench, table_id, pair, closed_loop=False)
        for table_id, pair in zip(ids, pairs, strict=True)
    ]
    await asyncio.gather(*(table.open() for table in tables), return_exceptions=True)
    return tables


def idle_floor(result: dict[str, Any]) -> dict[str, Any]:
    idle = result["idle"]
    beside = result["idle"]["beside_idle"]["move_to_last_seat"]
    return {
        "floor": f"{sum(idle['idle'].values())} idle tables keep {idle['tables']} played ones' "
        f"p99 move→last seat <= {FLOOR_P99_MS:g} ms",
        "value": f"{idle['alone']['move_to_last_seat']['p99_ms']} → {beside['p99_ms']} ms",
        "passed": idle["passed"],
    }
