"""The phases at human pace, every table moving on a fixed schedule: the open loop, stepped up
to the capacity, and the slow readers. ``PacedRun`` is the whole run: ``Run`` and these."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from typing import Any

from bench.load.clients import LiveTable
from bench.load.data import Identity, connections_per_server
from bench.load.phases import FLOOR_P99_MS, FLOOR_SLOW_READER_P99_RATIO, Run
from bench.load.sockets import NonReader, Recorder, collector_paused
from bench.load.stats import CpuWindow, latency_summary
from bench.load.storm import storm_beside


class PacedRun(Run):
    """One bench run against one started server, with the phases at human pace."""

    # The last add_open_tables: seconds its sockets took to open (the tables' creation left
    # out) and the web processes' CPU seconds meanwhile.
    last_opening: tuple[float, float] = (0.0, 0.0)
    storm: dict[str, Any] | None = None  # the connection storm, when the open loop ran it
    # Each open-loop step's window by its tables (the idle phase's "alone"); the open loop,
    # which runs first, fills it.
    open_windows: dict[int, dict[str, Any]]

    # Open loop ------------------------------------------------------------------------------------

    async def add_open_tables(self, count: int, guests: list[Identity]) -> list[LiveTable]:
        pairs = [(guests.pop(), guests.pop()) for _ in range(count)]
        ids: list[int] = []
        for start in range(0, count, 250):  # several transactions: the first tables open sooner
            ids += await self.tables(pairs[start : start + 250], stake=0)
        tables = [
            LiveTable(self.bench, table_id, pair, closed_loop=False)
            for table_id, pair in zip(ids, pairs, strict=True)
        ]
        cpu = CpuWindow(self.cpu_groups)
        cpu.start()
        started = time.monotonic()
        results = await asyncio.gather(*(table.open() for table in tables), return_exceptions=True)
        self.last_opening = (time.monotonic() - started, cpu.stop()["web"])
        opened = []
        for table, result in zip(tables, results, strict=True):
            if isinstance(result, BaseException):
                await table.finish()
            else:
                opened.append(table)
        return opened

    async def schedule(self, table: LiveTable, first: float, period: float) -> None:
        """The table's moves on a fixed schedule; each starts its clock at its scheduled time."""
        beat = itertools.count()
        pings = time.monotonic() + random.uniform(20, 30)
        while table.running:
            scheduled = first + next(beat) * period
            await asyncio.sleep(max(0.0, scheduled - time.monotonic()))
            if not table.running:
                return
            actor = table.actor()
            if actor is None:
                if self.bench.recorder.counts(scheduled):
                    self.bench.recorder.not_ready += 1
                    self.bench.recorder.last_seat.append(float("inf"))
            else:
                await actor.act(scheduled)
            if time.monotonic() >= pings:  # protocol § ping: one every 20-30 s
                pings += random.uniform(20, 30)
                for client in table.clients:
                    await client.send({"type": "ping"})

    async def open_loop(self, guests: list[Identity]) -> dict[str, Any]:
        args = self.args
        period = args.period
        steps: list[dict[str, Any]] = []
        schedulers: list[asyncio.Task[None]] = []
        rss_before = self.rss()
        self.bench.peak_sockets = self.bench.live_sockets  # table sockets only, not the echo's
        capacity = 0
        first_step: tuple[int, int] | None = None  # tables and RSS at the end of the first step
        socket_floor: dict[str, Any] | None = None
        wanted_sockets = args.sockets
        stopped_by_budget = False
        seconds_per_table = 0.0  # how fast the last step's tables connected (none before it)
        playing_cpu_per_s = 0.0  # web CPU a second the tables already playing spend
        stormed: list[LiveTable] = []  # the storm's new tables, open, for the next step
        self.open_windows = {}
        for target in args.open_steps:
            self.check_alive()
            adding = target - len(self.live) - len(stormed)
            if adding < 0 or (adding == 0 and not stormed):
                continue
            # Keep the run within its budget: no step that would end past it, judged by how
            # fast the last step connected (a fast machine reached 2,000 tables, whose 2,000 new
            # sockets took 115 s to connect beside 1,000 playing tables).
            expected = 2.0 + period + args.open_seconds + adding * seconds_per_table
            if time.monotonic() + expected > self.deadline:
                stopped_by_budget = True
                break
            connect_started = time.monotonic()
            failures_before = sum(self.bench.connects[k] for k in ("refused", "dropped"))
            new, self.last_opening = [], (0.0, 0.0)
            if adding:
                new = await self.add_open_tables(adding, guests)
                seconds_per_table = (time.monotonic() - connect_started) / adding
            connect_seconds = time.monotonic() - connect_started
            # Web CPU a new socket: the opening's, less what the tables already playing spent
            # meanwhile (at the last step's rate).
            opening_seconds, opening_cpu = self.last_opening
            connect_cpu = opening_cpu - playing_cpu_per_s * opening_seconds
            cpu_per_socket_ms = 1000 * connect_cpu / (2 * len(new)) if new else None
            new, stormed = stormed + new, []
            failures = sum(self.bench.connects[k] for k in ("refused", "dropped")) - failures_before
            self.live += new
            self.watched = self.live
            origin = time.monotonic() + 1.0
            for index, table in enumerate(new):
                first = origin + period * index / max(1, len(new))
                schedulers.append(asyncio.ensure_future(self.schedule(table, first, period)))
            recorder = Recorder()
            window_start = origin + period  # every new table has started its schedule
            recorder.window = (window_start, window_start + args.open_seconds)
            self.bench.recorder = recorder
            cpu = CpuWindow(self.cpu_groups)
            with collector_paused():
                await asyncio.sleep(max(0.0, window_start - time.monotonic()))
                cpu.start()
                await asyncio.sleep(args.open_seconds)
                spent = cpu.stop()
                await asyncio.sleep(1.0)  # the last moves of the window arrive
            # A move whose state never reached every seat counts as infinitely late.
            unanswered = sum(
                1
                for table in self.live
                for started in table.pending.values()
                if recorder.counts(started) and time.monotonic() - started > 1.0
            )
            samples = recorder.last_seat + [float("inf")] * unanswered
            summary = latency_summary(samples)
            live_tables = len(self.live)
            rss = self.rss()
            p99 = summary["p99_ms"]
            passed = p99 is not None and p99 <= FLOOR_P99_MS
            step = {
                "tables": live_tables,
                "sockets": self.bench.live_sockets,
                "connect_seconds": round(connect_seconds, 1),
                "connect_failures": failures,
                "sockets_opened_in_s": round(opening_seconds, 1),
                "web_cpu_ms_per_new_socket": cpu_per_socket_ms and round(cpu_per_socket_ms, 2),
                "moves": len(recorder.last_seat),
                "moves_per_s": round(len(recorder.last_seat) / args.open_seconds, 1),
                "move_to_last_seat": summary,
                "unanswered": unanswered,
                "not_ready": recorder.not_ready,
                "errors": dict(recorder.errors),
                "version_gaps": recorder.gaps,
                "syncs": recorder.syncs,
                "web_cpu_s": round(spent["web"], 2),
                "web_rss_mb": round(rss / 2**20, 1),
                "rss_kb_per_table": round((rss - rss_before) / 1024 / max(1, live_tables), 1),
                "passed": passed,
            }
            steps.append(step)
            self.open_windows[live_tables] = step
            playing_cpu_per_s = spent["web"] / args.open_seconds
            first_step = first_step or (live_tables, rss)
            print(
                f"  open loop {live_tables:5d} tables ({step['sockets']} sockets, connected in "
                f"{connect_seconds:.1f} s, sockets {opening_seconds:.1f} s at "
                f"{step['web_cpu_ms_per_new_socket']} ms web CPU each, "
                f"{failures} failed): {step['moves_per_s']:6.1f} moves/s,"
                f" move→last seat p50 {summary['p50_ms']} ms p99 {p99} ms, "
                f"{step['rss_kb_per_table']} KB/table  {'pass' if passed else 'FAIL'}",
                flush=True,
            )
            if self.bench.live_sockets >= wanted_sockets and socket_floor is None:
                socket_floor = self.socket_floor(wanted_sockets)
            if args.storm_sockets and self.storm is None and live_tables >= args.storm_tables:
                self.storm, stormed = await storm_beside(self, self.live, guests, step)
            if not passed:
                break
            capacity = live_tables
        self.live += stormed  # open, and measured by no step
        if socket_floor is None:  # the stepping stopped early: connect up to the floor anyway
            missing = (wanted_sockets - self.bench.live_sockets + 1) // 2
            if missing > 0:
                self.live += await self.add_open_tables(missing, guests)
                self.watched = self.live
            socket_floor = self.socket_floor(wanted_sockets)
        # Memory at the most live tables of the run, against the server before the open loop.
        rss = self.rss()
        memory = {
            "tables": len(self.live),
            "web_rss_mb_before": round(rss_before / 2**20, 1),
            "web_rss_mb": round(rss / 2**20, 1),
            "kb_per_table": round((rss - rss_before) / 1024 / max(1, len(self.live)), 1),
            # What each table past the first step added: the one-time costs the first tables
            # bring (the database threads and their connections, the caches) left out.
            "kb_per_added_table": (
                round((rss - first_step[1]) / 1024 / (len(self.live) - first_step[0]), 1)
                if first_step is not None and len(self.live) > first_step[0]
                else None
            ),
        }
        spread = await self.in_db(connections_per_server, [t.table_id for t in self.live])
        for table in self.live:
            table.running = False
        for task in schedulers:
            task.cancel()
        await asyncio.gather(*schedulers, return_exceptions=True)
        await self.finish_tables(self.live)
        self.live = self.watched = []
        return {
            "period_s": period,
            "window_s": args.open_seconds,
            "steps": steps,
            "capacity_tables": capacity,
            "stopped_by_time_budget": stopped_by_budget,
            "sockets": socket_floor,
            "sockets_per_server_process": sorted(spread.values(), reverse=True),
            "memory": memory,
        }

    async def storm_apart(self, guests: list[Identity]) -> dict[str, Any]:
        """The connection storm on tables of its own, for a run whose open loop did not reach
        ``--storm-tables`` (the open loop runs it beside its own step of that size)."""
        played, schedulers = await self.scheduled_tables(self.args.storm_tables, guests)
        alone = await self.paced_window(played)
        result, arrived = await storm_beside(self, played, guests, alone)
        await self.stop_schedules(played, schedulers)
        await self.finish_tables(played + arrived)
        return result

    def socket_floor(self, wanted: int) -> dict[str, Any]:
        return {
            "wanted": wanted,
            "live": self.bench.live_sockets,
            "peak": self.bench.peak_sockets,
            "connected_total": self.bench.connects["ok"],
            "refused": self.bench.connects["refused"],
            "dropped": self.bench.connects["dropped"],
            "failures": self.bench.connect_failures[:10],
        }

    # Slow readers ---------------------------------------------------------------------------------

    async def paced_window(self, tables: list[LiveTable]) -> dict[str, Any]:
        """One measuring window of tables already on their schedules: move→last seat."""
        recorder = Recorder()
        start = time.monotonic() + self.args.period  # every table has moved once since now
        recorder.window = (start, start + self.args.open_seconds)
        self.bench.recorder = recorder
        cpu = CpuWindow(self.cpu_groups)
        with collector_paused():
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            cpu.start()
            await asyncio.sleep(self.args.open_seconds)
            spent = cpu.stop()
            await asyncio.sleep(1.0)
        unanswered = sum(
            1
            for table in tables
            for started in table.pending.values()
            if recorder.counts(started) and time.monotonic() - started > 1.0
        )
        return {
            "moves": len(recorder.last_seat),
            "move_to_last_seat": latency_summary(recorder.last_seat + [float("inf")] * unanswered),
            # Counted as never arriving: a move still unanswered a second after the window,
            # and a scheduled move no seat could make (the table's last state not there yet).
            "unanswered": unanswered,
            "not_ready": recorder.not_ready,
            "syncs": recorder.syncs,
            "errors": dict(recorder.errors),
            "web_cpu_s": round(spent["web"], 2),
            "web_rss_mb": round(self.rss() / 2**20, 1),
        }

    async def scheduled_tables(
        self, count: int, guests: list[Identity]
    ) -> tuple[list[LiveTable], list[asyncio.Task[None]]]:
        """``count`` new tables, watched, each on its schedule (spread over one period)."""
        tables = await self.add_open_tables(count, guests)
        self.watched = tables
        origin = time.monotonic() + 1.0
        period = self.args.period
        schedulers = [
            asyncio.ensure_future(
                self.schedule(table, origin + period * index / len(tables), period)
            )
            for index, table in enumerate(tables)
        ]
        return tables, schedulers

    async def stop_schedules(
        self, tables: list[LiveTable], schedulers: list[asyncio.Task[None]]
    ) -> None:
        for table in tables:
            table.running = False
        for task in schedulers:
            task.cancel()
        await asyncio.gather(*schedulers, return_exceptions=True)
        self.watched = []

    async def slow_readers(self, guests: list[Identity]) -> dict[str, Any]:
        """The same tables measured alone, then beside sockets that send and never read."""
        args = self.args
        tables, schedulers = await self.scheduled_tables(args.slow_tables, guests)
        alone = await self.paced_window(tables)
        readers = [
            NonReader(self.bench, tables[index % len(tables)].table_id)
            for index in range(args.slow_readers)
        ]
        running = [
            asyncio.ensure_future(reader.run(seconds=args.period + args.open_seconds + 30))
            for reader in readers
        ]
        await asyncio.sleep(1.0)
        beside = await self.paced_window(tables)
        closed = [r.closed_after for r in readers if r.closed_after is not None]
        for reader in readers:
            reader.close()
        await asyncio.gather(*running, return_exceptions=True)
        await self.stop_schedules(tables, schedulers)
        await self.finish_tables(tables)
        p99_alone = alone["move_to_last_seat"]["p99_ms"]
        p99_beside = beside["move_to_last_seat"]["p99_ms"]
        ratio = p99_beside / p99_alone if p99_alone and p99_beside is not None else None
        result = {
            "tables": len(tables),
            "non_readers": args.slow_readers,
            "alone": alone,
            "beside_non_readers": beside,
            "p99_ratio": round(ratio, 2) if ratio is not None else None,
            "non_readers_closed": len(closed),
            "syncs_sent": sum(reader.sent for reader in readers),
            "passed": ratio is not None and ratio <= FLOOR_SLOW_READER_P99_RATIO,
        }
        print(
            f"  {len(tables)} tables alone: p50 {alone['move_to_last_seat']['p50_ms']} ms p99 "
            f"{p99_alone} ms; beside {args.slow_readers} non-readers: p50 "
            f"{beside['move_to_last_seat']['p50_ms']} ms p99 {p99_beside} ms (ratio "
            f"{result['p99_ratio']}); web RSS {alone['web_rss_mb']} → {beside['web_rss_mb']} MB;"
            f" {len(closed)} of {args.slow_readers} non-readers closed by the server",
            flush=True,
        )
        return result
