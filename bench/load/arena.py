"""The load bench's arena phase (issue 29): ``--arena-players`` registered players (500) enter
one Japanese Joker arena (Fast, matches to 11) of ``--arena-minutes`` (2), started by the
server's own beat. Each player holds the tournament's socket; told ``match_started``, it opens
the table and plays random legal moves at a fast person's pace (``--arena-move-seconds``, 1 s
after its turn comes) through the first hand, then leaves (a forfeit ends the match), and waits
for its next. The pace keeps the measure on the pairing: clients that moved the instant their
turn came would hold every table of the arena in the closed loop, and the figure would be the
machine's saturation by play (a first run so: p99 7.3 s, with 0.9 of a core in the web
processes and the clients' own 36 s of CPU).

Measured: the time from a match's end (the first state a player sees that is no longer
``playing``) to that player's next ``match_started`` (floor: p99 ≤ 2 s; only matches that ended
``ARENA_LAST_SECONDS`` or more before the end of pairing count), the matches played, and the
standings frames: new versions per second (what the server sent each socket) and frames
received per second over all sockets. Afterwards the bench waits for the event to end and
checks that its prizes' ledger holds (``audit_coins`` in the run's after-checks)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import time
from collections import Counter
from datetime import timedelta
from typing import Any

from bench.load.clients import gather_limited
from bench.load.data import Identity, analyze, make_users
from bench.load.phases import Run
from bench.load.sockets import collector_paused, open_socket
from bench.load.stats import CpuWindow, children_of, latency_summary

FLOOR_END_TO_NEXT_P99_MS = 2000.0
ARENA_LAST_SECONDS = 10.0  # a match ending this close to the end of pairing is not counted
START_DELAY_SECONDS = 5.0  # the event starts this long after the players have their sockets
FRAME_SECONDS = 30.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--arena-players", type=int, default=500, help="players in the arena (0: skip the phase)"
    )
    parser.add_argument(
        "--arena-minutes", type=int, default=2, help="how long the arena pairs players"
    )
    parser.add_argument(
        "--arena-move-seconds",
        type=float,
        default=1.0,
        help="how long an arena player takes to move once its turn comes",
    )


def make_arena(identities: list[Identity], minutes: int, starts_in: float) -> int:
    """The event and its entrants, through the services (the players are the bench's own)."""
    from django.utils import timezone

    from accounts.models import Player
    from tournaments.models import Tournament
    from tournaments.services.entries import tournament_join

    tournament = Tournament.objects.create(
        name="Bench arena",
        game="japanese_joker",
        speed="fast",
        starts_at=timezone.now() + timedelta(seconds=starts_in),
        duration_minutes=minutes,
        options={"points": 11},
    )
    players = Player.objects.in_bulk([identity.player_id for identity in identities])
    for identity in identities:
        tournament_join(player=players[identity.player_id], tournament_id=tournament.pk)
    return tournament.pk


def arena_status(tournament_id: int) -> tuple[str, float | None]:
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=tournament_id)
    ends = tournament.ends_at.timestamp() if tournament.ends_at else None
    return tournament.status, ends


class ArenaPlayer:
    def __init__(self, phase: ArenaPhase, identity: Identity, rng: random.Random) -> None:
        self.phase = phase
        self.identity = identity
        self.rng = rng
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.tables: list[asyncio.Task[None]] = []
        self.ended_at: float | None = None  # wall clock: compared with the event's end
        self.ended_mono: float | None = None
        self.latest_table: int | None = None  # the last table a match_started named
        self.acts = 0

    async def open(self) -> None:
        path = f"/ws/tournament/{self.phase.tournament_id}/"
        self.ws = await open_socket(self.phase.run.bench, path, self.identity.cookie)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            async for text in self.ws:
                frame = json.loads(text)
                if frame["type"] == "standings":
                    self.phase.standings_frames += 1
                    self.phase.versions.add(frame["version"])
                elif frame["type"] == "match_started":
                    if self.ended_mono is not None:
                        self.phase.gaps.append(
                            (self.ended_at or 0.0, time.monotonic() - self.ended_mono)
                        )
                        self.ended_mono = None
                    self.latest_table = frame["table"]
                    self.tables.append(asyncio.ensure_future(self._table(frame["table"])))

    async def _table(self, table: int) -> None:
        bench = self.phase.run.bench
        try:
            ws = await open_socket(bench, f"/ws/table/{table}/", self.identity.cookie)
        except Exception:
            return
        acted = -1
        left = False
        try:
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), FRAME_SECONDS))
                if frame["type"] == "error":
                    if not (left and frame["code"] in ("match_over", "not_seated")):
                        self.phase.errors[f"table:{frame['code']}"] += 1  # else: both left
                    acted = -1
                    continue
                if frame["type"] != "state":
                    continue
                if frame["status"] != "playing":
                    self.phase.matches += 1
                    if self.latest_table != table:
                        # The next match was announced on the tournament socket before this
                        # socket said the match was over: paired at once (counted as 0), not
                        # waiting for the match after next.
                        self.phase.gaps.append((time.time(), 0.0))
                        self.phase.started_before_end_seen += 1
                    else:
                        self.ended_at, self.ended_mono = time.time(), time.monotonic()
                    return
                view = frame["view"]
                if view["hand_number"] > 1:  # the first hand is played: this seat walks out
                    if not left:
                        left = True
                        await ws.send(json.dumps({"type": "leave"}))
                elif view["to_act"] == frame["seat"] and view["legal"] and frame["version"] > acted:
                    acted = frame["version"]
                    self.acts += 1
                    action = self.rng.choice(view["legal"])
                    await asyncio.sleep(self.phase.run.args.arena_move_seconds)
                    await ws.send(
                        json.dumps(
                            {
                                "type": "act",
                                "version": acted,
                                "id": f"r{self.identity.player_id}-{self.acts}",
                                "action": action,
                            }
                        )
                    )
        except Exception as error:
            self.phase.errors[f"table:{type(error).__name__}"] += 1
        finally:
            with contextlib.suppress(Exception):
                await ws.close()
            bench.live_sockets -= 1

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*self.tables), FRAME_SECONDS)
        with contextlib.suppress(Exception):
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 10)
        self.phase.run.bench.live_sockets -= 1


class ArenaPhase:
    def __init__(self, run: Run, tournament_id: int) -> None:
        self.run = run
        self.tournament_id = tournament_id
        self.gaps: list[tuple[float, float]] = []  # (when the match ended, seconds to the next)
        self.matches = 0  # seen over by a player (each match twice)
        self.standings_frames = 0
        self.started_before_end_seen = 0
        self.versions: set[str] = set()
        self.errors: Counter[str] = Counter()

    async def measure(self, players: list[ArenaPlayer]) -> dict[str, Any]:
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
            started = time.monotonic()
            status, ends_at = "scheduled", None
            while status in ("scheduled", "running"):
                await asyncio.sleep(2.0)
                status, ends_at = await self.run.in_db(arena_status, self.tournament_id)
                if time.monotonic() - started > 60 * (self.run.args.arena_minutes + 5):
                    break  # counted below: the event did not end
            spent = cpu.stop()
            seconds = time.monotonic() - started
        await gather_limited([player.close for player in players], 100)
        counted = [
            gap for ended, gap in self.gaps if ends_at and ended < ends_at - ARENA_LAST_SECONDS
        ]
        summary = latency_summary(counted)
        return {
            "players": len(players),
            "minutes": self.run.args.arena_minutes,
            "status": status,
            "matches": self.matches // 2,
            "end_to_next_pairing": summary,
            "started_before_end_seen": self.started_before_end_seen,
            "standings_versions_per_s": round(len(self.versions) / seconds, 2),
            "standings_frames_per_s": round(self.standings_frames / seconds, 1),
            "errors": dict(self.errors),
            "cpu_s": {name: round(value, 2) for name, value in spent.items()},
            "passed": status == "finished"
            and summary["p99_ms"] is not None
            and summary["p99_ms"] <= FLOOR_END_TO_NEXT_P99_MS,
        }


async def arena_phase(run: Run) -> dict[str, Any]:
    args = run.args
    identities = await run.in_db(make_users, args.arena_players, f"{run.tag}t")
    await run.in_db(analyze)
    starts_in = START_DELAY_SECONDS + args.arena_players / 50  # the sockets open meanwhile
    tournament_id = await run.in_db(make_arena, identities, args.arena_minutes, starts_in)
    phase = ArenaPhase(run, tournament_id)
    rng = random.Random(args.seed)
    players = [ArenaPlayer(phase, identity, random.Random(rng.random())) for identity in identities]
    await gather_limited([player.open for player in players], 100)
    result = await phase.measure(players)
    print(arena_line(result), flush=True)
    return result


def arena_line(r: dict[str, Any]) -> str:
    gap = r["end_to_next_pairing"]
    return (
        f"  arena {r['players']} players, {r['minutes']} min: {r['status']}, {r['matches']} "
        f"matches; match end → next match p50 {gap['p50_ms']} p99 {gap['p99_ms']} ms "
        f"({'pass' if r['passed'] else 'FAIL'}; {r['started_before_end_seen']} announced before "
        f"the end reached the table socket); standings {r['standings_versions_per_s']} "
        f"new a second, {r['standings_frames_per_s']} frames/s received; errors "
        f"{sum(r['errors'].values())}; CPU s {r['cpu_s']}"
    )


def arena_floor(result: dict[str, Any]) -> dict[str, Any]:
    arena = result["arena"]
    return {
        "floor": f"arena p99 match end → next pairing <= {FLOOR_END_TO_NEXT_P99_MS / 1000:g} s",
        "value": f"{arena['end_to_next_pairing']['p99_ms']} ms ({arena['players']} players, "
        f"{arena['matches']} matches, event {arena['status']})",
        "passed": arena["passed"],
    }
