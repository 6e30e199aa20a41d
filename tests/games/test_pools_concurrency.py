"""Quick play under contention, on PostgreSQL (issue 28 § 2): many players joining and leaving
overlapping pools while two pairing passes run at once and paired players arrive (or do not).
Whatever interleaves, nobody is seated twice, every quick-play table is full of different
players, every started match holds every stake, and the ledger audits clean."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.selectors import coin_audit
from core.errors import ServiceError
from games.models import LiveServer, Match, PoolTicket, Seat, Table, TableConnection
from games.services import pool_tables, pools
from games.services.matches import match_cancel
from tests.support.players import make_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

POOLS = [
    "japanese_joker/fast/0/casual",
    "japanese_joker/fast/25/rated",
    "japanese_whist/normal/0/rated",
    "classic_joker/normal/0/casual",
]
PLAYERS = 40
SECONDS = 8.0


def _in_threads(work: list, seconds: float) -> list[BaseException]:
    """Run each callable in a loop in its own thread until time is up; the unexpected errors."""
    errors: list[BaseException] = []
    stop = time.monotonic() + seconds

    def runner(job) -> None:
        try:
            while time.monotonic() < stop:
                job()
        except BaseException as error:  # reported below, whatever it is
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(job,)) for job in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_many_joiners_leavers_and_two_pairings_never_seat_anyone_twice(settings):
    settings.POOL_CONNECT_SECONDS = 0.5  # tables nobody completes are called off quickly
    settings.POOL_GAP_START = 2000  # anyone may meet anyone: as many tables as possible
    players = [make_player(f"p{n}") for n in range(PLAYERS)]
    LiveServer.objects.create(name="stress", last_seen_at=timezone.now() + timedelta(hours=1))
    server = LiveServer.objects.get(name="stress")
    refused: Counter[str] = Counter()

    def player_moves(seed: int):
        rng = random.Random(seed)

        def step() -> None:
            player = rng.choice(players)
            try:
                if rng.random() < 0.7:
                    chosen = rng.sample(POOLS, rng.randint(1, 3))
                    fill = rng.choice([None, 10]) if rng.random() < 0.3 else None
                    pools.pool_join(player=player, pool_ids=chosen, fill_after_seconds=fill)
                else:
                    pools.pool_leave(player=player)
            except ServiceError as error:
                refused[error.code] += 1

        return step

    def pairing() -> None:
        pools.pools_sweep()

    def arrivals(seed: int):
        rng = random.Random(seed)

        def step() -> None:
            waiting = list(
                Table.objects.filter(
                    visibility=Table.Visibility.POOL, status=Table.Status.OPEN
                ).values_list("pk", flat=True)
            )
            if not waiting:
                time.sleep(0.01)
                return
            table_id = rng.choice(waiting)
            for seat in Seat.objects.filter(table_id=table_id, is_bot=False):
                if rng.random() < 0.9:  # one in ten does not come
                    TableConnection.objects.get_or_create(
                        channel_name=f"s-{table_id}-{seat.player_id}",
                        defaults={"server": server, "table_id": table_id, "player": seat.player},
                    )
            pool_tables.pool_table_arrived(table_id)

        return step

    def finishing(seed: int):
        """Started matches end (an admin cancel: every stake back), so players come back."""
        rng = random.Random(seed)

        def step() -> None:
            playing = list(
                Match.objects.filter(status=Match.Status.PLAYING).values_list("pk", flat=True)
            )
            if playing:
                match_cancel(match_id=rng.choice(playing), reason="stress")
            time.sleep(0.05)

        return step

    errors = _in_threads(
        [
            player_moves(1),
            player_moves(2),
            player_moves(3),
            pairing,
            pairing,
            arrivals(4),
            arrivals(5),
            finishing(6),
        ],
        SECONDS,
    )
    assert errors == [], "\n".join(f"{type(e).__name__}: {e}" for e in errors)
    pool_tables_made = Table.objects.filter(visibility=Table.Visibility.POOL)
    assert pool_tables_made.count() >= 10, refused
    for table in pool_tables_made:
        seats = list(Seat.objects.filter(table=table))
        assert len(seats) == table.seats_total
        people = [seat.player_id for seat in seats if not seat.is_bot]
        assert len(people) == len(set(people))
    # Nobody holds two seats at once: every active seat is one player's only one.
    active = Counter(Seat.objects.filter(active=True).values_list("player_id", flat=True))
    assert all(count == 1 for count in active.values())
    # A paired ticket points at an open quick-play table the player sits at.
    for ticket in PoolTicket.objects.exclude(table=None).select_related("table"):
        assert ticket.table.status == Table.Status.OPEN
        assert Seat.objects.filter(table=ticket.table, player=ticket.player_id).exists()
    started = Match.objects.filter(table__visibility=Table.Visibility.POOL)
    assert started.exists()
    assert coin_audit().ok
