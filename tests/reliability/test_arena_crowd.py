"""Issue 29's acceptance, end to end: an arena of 24 players against the whole site as ``make
run`` serves it on PostgreSQL and Redis (``scripts/serve.py``: two Daphnes, a Celery worker and
Celery beat, whose tick starts the event, pairs it and ends it), each player a websocket client
of docs/protocol.md (``tests/support/arena_crowd.py``) that plays every match it is sent to.
Once with the site left alone, once with the worker killed (SIGKILL) in the middle of the event
and started again by serve.py.

Afterwards: the event ended and paid its prizes once, every match at its tables ended and every
finished one was rated exactly once, the standings equal a recomputation from the result rows,
the result rows are exactly the finished matches' seats, no player sat at two tables at once,
``audit_coins`` is clean and no process logged a traceback or an ERROR.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import os
import random
import signal
import threading
import time
from collections import defaultdict
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import CoinTransaction
from games.models import Match, Seat
from ladder.models import RatingChange
from tests.support.arena_crowd import ArenaClient, ArenaRecord, run_arena
from tests.support.daphne import session_cookie
from tests.support.players import make_player
from tests.support.site import ServedSite
from tournaments import selectors
from tournaments.models import Entrant, Tournament, TournamentResult
from tournaments.services.entries import tournament_join

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = 24
ARENA_MINUTES = 2
FEE = 10
SEED = 29


@pytest.fixture
def site(tmp_path, transactional_db):
    served = ServedSite(
        tmp_path,
        web_processes=2,
        LIVE_RATE_PER_SECOND="10000",
        LIVE_RATE_BURST="10000",
        TOURNAMENT_TICK_SECONDS="1",
    )
    try:
        yield served.start()
    finally:
        served.stop()


def _arena() -> Tournament:
    players = [make_player(f"arena{index:02d}") for index in range(PLAYERS)]
    tournament = Tournament.objects.create(
        name="Crowd arena",
        game="japanese_joker",
        speed="fast",
        starts_at=timezone.now() + timedelta(seconds=8),
        duration_minutes=ARENA_MINUTES,
        entry_fee=FEE,
        prize_shares=[50, 30, 20],
        options={"points": 11},
    )
    for player in players:
        tournament_join(player=player, tournament_id=tournament.pk)
    return tournament


def _run(site: ServedSite, tournament: Tournament, *, kill_worker_after: float | None) -> str:
    record = ArenaRecord()
    clients = [
        ArenaClient(
            record,
            entrant.player_id,
            session_cookie(entrant.player),
            site.ws_url,
            random.Random(SEED + index),
        )
        for index, entrant in enumerate(tournament.entrants.select_related("player"))
    ]
    killed: list[int] = []
    if kill_worker_after is not None:

        def kill() -> None:
            time.sleep(kill_worker_after)
            pid = site.pids()["worker"]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

        threading.Thread(target=kill, daemon=True).start()
    started = time.monotonic()
    asyncio.run(run_arena(clients, tournament.pk, ARENA_MINUTES * 60 + 150))
    summary = (
        f"{time.monotonic() - started:.0f} s; tables {sum(map(len, record.tables.values()))}; "
        f"standings frames {record.standings_frames}; errors {dict(record.errors)}; "
        f"problems {record.problems[:5]}; killed {killed}"
    )
    print(summary)
    if kill_worker_after is not None:
        assert killed, summary
        restarted = f"worker exited (pid {killed[0]}, killed by SIGKILL); restarting it"
        assert restarted in site.output(), summary
    return summary


def _check(tournament: Tournament, summary: str) -> None:
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED, summary
    links = list(tournament.tables.select_related("table"))
    assert len(links) >= PLAYERS // 2, summary  # everyone played, most more than once
    assert all(link.counted for link in links), summary
    matches = list(Match.objects.filter(table__in=[link.table for link in links]))
    assert all(match.status != Match.Status.PLAYING for match in matches), summary
    finished = [m for m in matches if m.status == Match.Status.FINISHED and m.result["winners"]]
    # Every finished match rated exactly once (two changes, one per seat) and counted once.
    for match in finished:
        assert RatingChange.objects.filter(match=match).count() == 2, match.pk
    results = TournamentResult.objects.filter(tournament=tournament)
    assert results.count() == 2 * len(finished), summary
    assert not results.filter(tournament_table__isnull=True).exists()
    # The standings are the result rows, recomputed; the prizes were paid once, in full.
    table = selectors.arena_table(tournament)
    entrants = {e.player_id: e for e in Entrant.objects.filter(tournament=tournament)}
    assert {row.player: row.record.total for row in table} == {
        pid: e.score for pid, e in entrants.items()
    }, summary
    assert [row.player for row in table[:3]] == [
        e.player_id for e in sorted(entrants.values(), key=lambda e: e.rank)[:3]
    ]
    assert sum(e.prize for e in entrants.values()) == FEE * PLAYERS
    assert CoinTransaction.objects.filter(key=f"prizes:tournament:{tournament.pk}").count() == 1
    # Nobody sat at two tables at once.
    seats = defaultdict(list)
    for seat in Seat.objects.filter(is_bot=False).select_related("table").order_by("joined_at"):
        seats[seat.player_id].append(seat)
    for player_id, held in seats.items():
        for before, after in itertools.pairwise(held):
            assert before.table.ended_at <= after.joined_at, (player_id, before.pk, after.pk)
    out = io.StringIO()
    call_command("audit_coins", stdout=out)
    assert "Ledger OK" in out.getvalue(), out.getvalue()


def test_an_arena_of_24_players_runs_to_its_prizes(site):
    tournament = _arena()
    summary = _run(site, tournament, kill_worker_after=None)
    _check(tournament, summary)
    assert not site.problems(), site.problems()[:20]


def test_an_arena_whose_worker_is_killed_mid_event_ends_the_same(site):
    tournament = _arena()
    summary = _run(site, tournament, kill_worker_after=60)
    _check(tournament, summary)
    assert not [line for line in site.problems() if "SIGKILL" not in line], site.problems()[:20]
