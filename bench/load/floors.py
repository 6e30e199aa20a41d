"""The load bench's judgement of a run: the floors (issue 32's, and those of earlier rounds that
still hold), the figures reported beside them, and the checks of what the run left."""

from __future__ import annotations

from typing import Any

from bench.load.arena import arena_floor
from bench.load.idle import idle_floor
from bench.load.nodes import nodes_floor
from bench.load.phases import (
    FLOOR_CAPACITY_TABLES,
    FLOOR_CPU_PER_MOVE_OVER_ECHO,
    FLOOR_KB_PER_TABLE,
    FLOOR_P99_MS,
    FLOOR_SLOW_READER_P99_RATIO,
    FLOOR_SOCKETS,
    sync_spam_floor,
)
from bench.load.pools import pool_floor
from bench.load.storm import storm_floor


def floors(result: dict[str, Any]) -> list[dict[str, Any]]:
    checks = []
    per_echo = result["echo"]["web_cpu_ms_per_round_trip"]
    closed = result["closed_loop"]
    if closed and per_echo:
        best = min(closed, key=lambda step: step["cpu_ms_per_move"]["web"])
        ratio = best["cpu_ms_per_move"]["web"] / per_echo
        checks.append(
            {
                "floor": f"web CPU a move <= {FLOOR_CPU_PER_MOVE_OVER_ECHO:g} x an echo round "
                "trip's",
                "value": f"{best['cpu_ms_per_move']['web']} / {per_echo} ms = {ratio:.1f} "
                f"(closed loop at {best['tables']} tables)",
                "passed": ratio <= FLOOR_CPU_PER_MOVE_OVER_ECHO,
            }
        )
    open_loop = result["open_loop"]
    checks.append(
        {
            "floor": f"capacity >= {FLOOR_CAPACITY_TABLES} tables at p99 move→last seat "
            f"<= {FLOOR_P99_MS:g} ms",
            "value": f"{open_loop['capacity_tables']} tables"
            + (
                " (stepping stopped by the time budget)"
                if open_loop["stopped_by_time_budget"]
                else ""
            ),
            "passed": open_loop["capacity_tables"] >= FLOOR_CAPACITY_TABLES,
        }
    )
    sockets = open_loop["sockets"]
    checks.append(
        {
            "floor": f"{FLOOR_SOCKETS} sockets connect without a refusal or a dropped handshake",
            "value": f"{sockets['peak']} live at once, {sockets['refused']} refused, "
            f"{sockets['dropped']} dropped",
            "passed": sockets["peak"] >= sockets["wanted"]
            and not sockets["refused"]
            and not sockets["dropped"],
        }
    )
    memory = open_loop["memory"]
    if memory["tables"]:
        checks.append(
            {
                "floor": f"<= {FLOOR_KB_PER_TABLE:g} KB of server memory per live table",
                "value": f"{memory['kb_per_table']} KB (at {memory['tables']} tables)",
                "passed": memory["kb_per_table"] <= FLOOR_KB_PER_TABLE,
            }
        )
    slow = result.get("slow_readers")
    if slow:
        checks.append(
            {
                "floor": f"{slow['non_readers']} non-reading sockets keep the other tables' p99 "
                f"within {FLOOR_SLOW_READER_P99_RATIO:g}x",
                "value": f"{slow['alone']['move_to_last_seat']['p99_ms']} → "
                f"{slow['beside_non_readers']['move_to_last_seat']['p99_ms']} ms "
                f"(x{slow['p99_ratio']}) at {slow['tables']} tables",
                "passed": slow["passed"],
            }
        )
    judged = {
        "sync_spam": sync_spam_floor,
        "idle": idle_floor,
        "storm": storm_floor,
        "nodes": nodes_floor,
        "pools": pool_floor,
        "arena": arena_floor,
    }
    checks += [judge(result) for phase, judge in judged.items() if result.get(phase)]
    return checks


def ratios(result: dict[str, Any]) -> dict[str, Any]:
    echo = result["echo"]
    closed = result["closed_loop"]
    if not closed:
        return {}
    best = max(closed, key=lambda step: step["moves_per_s"])
    per_echo = echo["web_cpu_ms_per_round_trip"]
    per_move = min(step["cpu_ms_per_move"]["web"] for step in closed)  # as floors() judges it
    return {
        "closed_moves_per_echo_round_trip": round(
            best["moves_per_s"] / echo["round_trips_per_s"], 3
        ),
        "web_cpu_ms_per_move": per_move,
        "web_cpu_ms_per_echo": per_echo,
        "cpu_per_move_over_per_echo": round(per_move / per_echo, 1) if per_echo else None,
        "rss_kb_per_live_table": result["open_loop"]["memory"]["kb_per_table"],
        "rss_kb_per_added_table": result["open_loop"]["memory"]["kb_per_added_table"],
    }


def after_checks(result: dict[str, Any], log: dict[str, Any]) -> list[dict[str, Any]]:
    after = result["after"]
    matches = after["matches"]
    return [
        {
            "check": "every match finished or cleanly ended",
            "value": matches,
            "passed": not matches.get("playing"),
        },
        {
            "check": "audit_coins clean",
            "value": after["audit_coins"]["output"].splitlines()[-1:],
            "passed": after["audit_coins"]["ok"],
        },
        {
            "check": "no hidden card in any frame received",
            "value": f"{after['hidden_cards']['frames_scanned']} frames of "
            f"{after['hidden_cards']['matches']} matches, "
            f"{after['hidden_cards']['leak_count']} leaks",
            "passed": after["hidden_cards"]["leak_count"] == 0,
        },
        {
            "check": "no exception or error in the server logs",
            "value": f"{log['tracebacks']} tracebacks, {log['error_lines']} error lines",
            "passed": log["error_lines"] == 0,
        },
    ]
