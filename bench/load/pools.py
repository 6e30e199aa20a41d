"""The load bench's quick-play phase (issue 28 § 2): ``--pool-players`` registered players
(1,000) each hold a lobby socket and send one ``pool_join`` (one or two of ``--pools``, chosen
at random) at a random moment of a ``--pool-window`` (60 s; 0: all at once). A player told
``paired`` opens its table at once, and the match starts when both seats have
(docs/protocol.md § Quick play); then seat 0 leaves (the match is aborted, the stakes refunded)
and both sockets close. Players still unpaired ``POOL_TAIL_SECONDS`` after the last join leave
the pools.

Measured: pairs made per second (from the first ``pool_join`` to the last ``paired``: within a
window it is the arrival rate when the server keeps up; with ``--pool-window 0`` the pairing's
own throughput), the time from a player's ``pool_join`` to its first table ``state`` with
``status`` ``playing``, and from ``paired`` to that ``state`` (floor: p99 ≤ 1 s). The run's own
baseline beside them is the group echo measured at its start: one frame through the channel
layer, as ``paired`` and a match's first ``state`` are."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import time
from collections import Counter, defaultdict
from typing import Any

from bench.load.clients import gather_limited
from bench.load.data import Identity, analyze, make_users
from bench.load.phases import Run
from bench.load.sockets import collector_paused, open_socket
from bench.load.stats import CpuWindow, children_of, latency_summary

POOLS = (
    "japanese_joker/fast/0/casual",
    "japanese_joker/fast/25/rated",
    "japanese_whist/fast/0/casual",
    "japanese_whist/normal/0/rated",
)
FLOOR_PAIRED_TO_PLAYING_P99_MS = 1000.0
POOL_TAIL_SECONDS = 20.0  # after the last join: a table nobody completed is called off at 15 s
FRAME_SECONDS = 30.0  # the longest a table socket waits for its next frame


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pool-players",
        type=int,
        default=1000,
        help="players joining quick play's pools (0: skip the phase)",
    )
    parser.add_argument(
        "--pool-window",
        type=float,
        default=60.0,
        help="seconds over which they join (0: all at once)",
    )
    parser.add_argument(
        "--pools",
        nargs="+",
        default=list(POOLS),
        help="the pools each player picks one or two of",
    )


class PoolPlayer:
    """One player of the phase: a lobby socket, then the table it is paired at."""

    def __init__(self, phase: PoolPhase, identity: Identity) -> None:
        self.phase = phase
        self.identity = identity
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.tables: list[asyncio.Task[None]] = []
        self.joined_at: float | None = None
        self.answered_at: float | None = None
        self.paired_at: dict[int, float] = {}
        self.playing_at: float | None = None
        self.playing_table: int | None = None

    async def open(self) -> None:
        self.ws = await open_socket(self.phase.run.bench, "/ws/lobby/", self.identity.cookie)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            async for text in self.ws:
                now = time.monotonic()
                frame = json.loads(text)
                kind = frame["type"]
                self.phase.lobby_frames[kind] += 1
                if kind == "pool_ticket" and self.answered_at is None:
                    self.answered_at = now
                elif kind == "error":
                    self.phase.errors[f"lobby:{frame['code']}"] += 1
                elif kind == "paired":
                    table = frame["table"]
                    self.paired_at[table] = now
                    self.phase.paired[table].append(now)
                    self.tables.append(asyncio.ensure_future(self._table(table)))
                elif kind == "pool_called_off":
                    self.phase.called_off.add(frame["table"])

    async def join(self, pools: list[str]) -> None:
        self.joined_at = time.monotonic()
        await self.ws.send(json.dumps({"type": "pool_join", "pools": pools, "fill_after": None}))

    async def _table(self, table: int) -> None:
        """Open the table; its first ``playing`` state is the figure; seat 0 then leaves."""
        bench = self.phase.run.bench
        try:
            ws = await open_socket(bench, f"/ws/table/{table}/", self.identity.cookie)
        except Exception:  # counted by open_socket: the table is called off in time
            return
        try:
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), FRAME_SECONDS))
                kind = frame["type"]
                if kind == "error":
                    self.phase.errors[f"table:{frame['code']}"] += 1
                elif kind == "called_off":
                    return
                elif kind == "state":
                    status = frame["status"]
                    if status == "playing" and self.playing_at is None:
                        self.playing_at = time.monotonic()
                        self.playing_table = table
                        self.phase.started[table] += 1
                        if frame["seat"] == 0:
                            await ws.send(json.dumps({"type": "leave"}))
                    elif status not in ("open", "playing"):  # aborted, finished, cancelled
                        return
        except Exception as error:  # a silent table or a closed socket: say which
            self.phase.errors[f"table:{type(error).__name__}"] += 1
        finally:
            with contextlib.suppress(Exception):
                await ws.close()
            bench.live_sockets -= 1

    async def leave_if_waiting(self) -> None:
        """At the end: out of the pools, unless its match started (one called off may have sent
        it back to wait)."""
        if not self.paired_at:
            self.phase.unpaired += 1
        if self.playing_at is None:
            await self.ws.send(json.dumps({"type": "pool_leave"}))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*self.tables), FRAME_SECONDS)
        with contextlib.suppress(Exception):
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 10)
        self.phase.run.bench.live_sockets -= 1


class PoolPhase:
    def __init__(self, run: Run) -> None:
        self.run = run
        self.paired: dict[int, list[float]] = defaultdict(list)  # table -> when each seat heard
        self.started: Counter[int] = Counter()  # table -> seats that saw it playing
        self.called_off: set[int] = set()
        self.errors: Counter[str] = Counter()
        self.lobby_frames: Counter[str] = Counter()  # what the lobby sockets received, by type
        self.unpaired = 0

    async def measure(self, players: list[PoolPlayer], baseline: dict[str, Any]) -> dict[str, Any]:
        args = self.run.args
        rng = random.Random(args.seed)
        start = time.monotonic() + 1.0
        plan = sorted(
            (
                (start + rng.uniform(0, args.pool_window), player, rng.sample(args.pools, k))
                for player, k in ((p, min(len(args.pools), rng.choice((1, 2)))) for p in players)
            ),
            key=lambda item: item[0],
        )
        await self.run.refresh_backends()
        cpu = CpuWindow(
            {
                **self.run.cpu_groups,
                "postgres": lambda: children_of(self.run.postmaster),
                "clients": lambda: [os.getpid()],
            },
            parents={"postgres": self.run.postmaster},
        )
        with collector_paused():
            cpu.start()
            for when, player, pools in plan:
                await asyncio.sleep(max(0.0, when - time.monotonic()))
                await player.join(pools)
            await asyncio.sleep(POOL_TAIL_SECONDS)
            spent = cpu.stop()
        for player in players:
            await player.leave_if_waiting()
        await gather_limited([player.close for player in players], 100)
        return self.summary(players, baseline, spent)

    def summary(
        self, players: list[PoolPlayer], baseline: dict[str, Any], spent: dict[str, float]
    ) -> dict[str, Any]:
        joined = [p.joined_at for p in players if p.joined_at is not None]
        heard = [when for times in self.paired.values() for when in times]
        span = max(heard) - min(joined) if heard and joined else 0.0
        pairs = len(self.paired)
        to_playing: list[float] = []  # paired → the first playing state
        join_to_playing: list[float] = []
        for p in players:
            if p.playing_at is not None and p.playing_table is not None:
                to_playing.append(p.playing_at - p.paired_at[p.playing_table])
                if p.joined_at is not None:
                    join_to_playing.append(p.playing_at - p.joined_at)
        # A paired player whose table never started counts as infinitely late.
        late = sum(1 for p in players if p.paired_at and p.playing_at is None)
        paired_to_playing = latency_summary(to_playing + [float("inf")] * late)
        p99 = paired_to_playing["p99_ms"]
        return {
            "players": len(players),
            "window_s": self.run.args.pool_window,
            "pools": list(self.run.args.pools),
            "pairs": pairs,
            "pairs_per_s": round(pairs / span, 2) if span else None,
            "tables_started": sum(1 for seats in self.started.values() if seats == 2),
            "called_off": len(self.called_off),
            "unpaired": self.unpaired,
            "join_answered": latency_summary(
                [p.answered_at - p.joined_at for p in players if p.answered_at and p.joined_at]
            ),
            "join_to_playing": latency_summary(join_to_playing + [float("inf")] * late),
            "paired_to_playing": paired_to_playing,
            "never_playing": late,
            "errors": dict(self.errors),
            "lobby_frames": dict(self.lobby_frames),
            "cpu_s": {name: round(seconds, 2) for name, seconds in spent.items()},
            "web_cpu_ms_per_pair": round(spent["web"] * 1000 / max(1, pairs), 2),
            "celery_cpu_ms_per_pair": round(spent["celery"] * 1000 / max(1, pairs), 2),
            "baseline_group_echo": {
                key: baseline.get(key) for key in ("round_trips_per_s", "p50_ms", "p99_ms")
            },
            "passed": p99 is not None and p99 <= FLOOR_PAIRED_TO_PLAYING_P99_MS,
        }


def clear_pools() -> int:
    """Nobody waits in a pool when the phase starts: an interrupted run's players may."""
    from games.models import PoolTicket

    return PoolTicket.objects.all().delete()[0]


async def pool_phase(run: Run, baseline: dict[str, Any]) -> dict[str, Any]:
    """The phase, from making its players to its summary; ``baseline`` is the group echo."""
    args = run.args
    await run.in_db(clear_pools)
    identities = await run.in_db(make_users, args.pool_players, f"{run.tag}q")
    await run.in_db(analyze)
    phase = PoolPhase(run)
    players = [PoolPlayer(phase, identity) for identity in identities]
    connect_started = time.monotonic()
    await gather_limited([player.open for player in players], 100)
    connected = time.monotonic() - connect_started
    print(f"  {len(players)} lobby sockets connected in {connected:.1f} s", flush=True)
    result = await phase.measure(players, baseline)
    result["lobby_connect_s"] = round(connected, 1)
    print(pool_line(result), flush=True)
    return result


def pool_line(r: dict[str, Any]) -> str:
    def ms(summary: dict[str, Any]) -> str:
        return f"p50 {summary['p50_ms']} p99 {summary['p99_ms']} ms"

    echo = r["baseline_group_echo"]
    return (
        f"  quick play {r['players']} players in {r['window_s']:g} s: {r['pairs']} pairs "
        f"({r['pairs_per_s']} pairs/s), {r['tables_started']} started, {r['called_off']} called "
        f"off, {r['unpaired']} never paired; pool_join answered {ms(r['join_answered'])}; "
        f"join → playing {ms(r['join_to_playing'])}; paired → playing "
        f"{ms(r['paired_to_playing'])} ({'pass' if r['passed'] else 'FAIL'}); web CPU "
        f"{r['web_cpu_ms_per_pair']} ms a pair; errors {sum(r['errors'].values())}; baseline: "
        f"group echo p50 {echo['p50_ms']} p99 {echo['p99_ms']} ms, "
        f"{echo['round_trips_per_s']} round trips/s"
    )


def pool_floor(result: dict[str, Any]) -> dict[str, Any]:
    pool = result["pools"]
    return {
        "floor": f"quick play p99 paired → first playing state <= "
        f"{FLOOR_PAIRED_TO_PLAYING_P99_MS / 1000:g} s",
        "value": f"{pool['paired_to_playing']['p99_ms']} ms ({pool['pairs']} pairs of "
        f"{pool['players']} players in {pool['window_s']:g} s, {pool['pairs_per_s']} pairs/s; "
        f"group echo p99 {pool['baseline_group_echo']['p99_ms']} ms)",
        "passed": pool["passed"],
    }
