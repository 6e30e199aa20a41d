"""What a move costs before any socket: ``python -m bench.move_cost``.

The load bench measures a move's web CPU with everything around it (the frames in and out, the
channel layer, the event loops). This measures the part a socket's database thread runs, alone:
the move service (``moves.match_act``, as the socket pool calls it: the transaction, the locked
read, the rules, the writes, the seats' frames built), on the load bench's database and
settings, one move at a time on one thread, at ``--tables`` started tables whose seats are
present. Beside it, in the same run: the CPU of a bare PostgreSQL round trip through the same
connection (``SELECT 1``), and of the engine alone applying the same moves. The figures divide
issue 32's floor of 6 echoes a move between what a move must do and what a socket costs
(docs/performance.md § The floors).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from typing import Any

from bench.load.server import configure_environment, ensure_database, setup_django


def _tables(count: int) -> tuple[list[int], dict[int, Any]]:
    from accounts.models import Player
    from bench.load.data import analyze, make_guests, start_tables
    from games.models import Seat

    guests = make_guests(2 * count, f"mc{random.randrange(10**4):04d}")
    pairs = [(guests[2 * i], guests[2 * i + 1]) for i in range(count)]
    ids = start_tables(pairs, stake=0)
    analyze()
    # Present, as the load bench's seats are: no absence bank runs down on a move.
    Seat.objects.filter(table_id__in=ids).update(connected=True, bank_deadline=None)
    players = Player.objects.in_bulk([who.player_id for pair in pairs for who in pair])
    seated = {
        table_id: [players[who.player_id] for who in pair]
        for table_id, pair in zip(ids, pairs, strict=True)
    }
    return ids, seated


def measure(tables: int, rounds: int) -> dict[str, float]:
    from django.db import connection
    from django.utils import translation

    from core.pool import _in_pool_thread
    from games.models import Match
    from games.services import moves
    from games.services.matches import engine_state

    translation.activate("en")
    ids, seated = _tables(tables)
    act = _in_pool_thread(moves.match_act)
    rng = random.Random(7)
    service = engine = 0.0
    count = 0
    for round_number in range(rounds + 1):  # the first round warms the statements up
        for table_id in ids:
            match = Match.objects.get(table_id=table_id)
            if match.status != Match.Status.PLAYING:
                continue
            started = time.process_time()
            state = engine_state(match)
            action = rng.choice(state.legal_actions())
            state.apply(action)
            engine_spent = time.process_time() - started
            player = seated[table_id][state.to_act]
            started = time.process_time()
            act(
                table_id=table_id,
                player=player,
                version=match.version,
                action=action,
                client_action_id=f"c-{match.version}",
            )
            if round_number:
                service += time.process_time() - started
                engine += engine_spent
                count += 1
    with connection.cursor() as cursor:
        started = time.process_time()
        for _ in range(2000):
            cursor.execute("SELECT 1")
            cursor.fetchone()
        round_trip = (time.process_time() - started) / 2000
    return {
        "moves": count,
        "service_ms": 1000 * service / max(1, count),
        "engine_ms": 1000 * engine / max(1, count),
        "round_trip_ms": 1000 * round_trip,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.move_cost", description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=8, help="moves a table, measured")
    args = parser.parse_args(argv)
    configure_environment(tempfile.mkdtemp(prefix="joker-move-cost-"))
    ensure_database(os.environ["DATABASE_URL"])
    setup_django()
    from django.core.management import call_command

    call_command("migrate_all", verbosity=0)
    figures = measure(args.tables, args.rounds)
    print(
        f"{figures['moves']} moves at {args.tables} tables, CPU a move: the service "
        f"{figures['service_ms']:.3f} ms (the engine's apply alone {figures['engine_ms']:.3f} "
        f"ms); a bare PostgreSQL round trip {figures['round_trip_ms']:.3f} ms",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
