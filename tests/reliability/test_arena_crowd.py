"""Issue 29's acceptance, end to end: an arena of 24 players against the whole site as ``make
run`` serves it on PostgreSQL and Redis (``scripts/serve.py``: two Daphnes, a Celery worker and
Celery beat, whose tick starts the event, pairs it and ends it), each player a websocket client
of docs/protocol.md (``tests/support/arena_crowd.py``) that plays every match it is sent to.
Once with the site left alone, once with the worker killed (SIGKILL) in the middle of the event
and started again by serve.py.

The players enter four at a time while the event's page is read, and each reads it again after
every match (issue 40 § 3: 4 of 24 page views answered 500 while players entered).

Afterwards: the event ended and paid its prizes once, every match at its tables ended and every
finished one was rated exactly once, the result rows are exactly the finished matches' seats,
the standings (the entrants' scores and fire, the result rows, the selectors' lines and the last
frame the players saw) equal the event scored again from its matches alone, each player's in
the order they ended (issue 40 § 2: a count made late by the tick scored in counting order), no
player sat at two tables at once, ``audit_coins`` is clean, every page answered 200 and no
process logged a traceback or an ERROR (a 500 logs both).
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
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from accounts.models import CoinTransaction
from games.models import Match, Seat
from ladder import rating
from ladder.models import RatingChange
from tests.support.arena_crowd import (
    ArenaClient,
    ArenaRecord,
    Run,
    play_order_runs,
    read_page,
    run_arena,
)
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
AT_A_TIME = 4  # players entering at once
COUNT_GRACE_SECONDS = 60


@pytest.fixture
def site(tmp_path, transactional_db):
    served = ServedSite(
        tmp_path,
        web_processes=2,
        LIVE_RATE_PER_SECOND="10000",
        LIVE_RATE_BURST="10000",
        TOURNAMENT_TICK_SECONDS="1",
        # A count left to the tick (a task lost with the killed worker; before issue 40, one
        # in four) comes after the player's next match, which lasts about a minute here.
        TOURNAMENT_COUNT_GRACE_SECONDS=str(COUNT_GRACE_SECONDS),
    )
    try:
        yield served.start()
    finally:
        served.stop()


def _arena(site: ServedSite) -> tuple[Tournament, list[int]]:
    """The event, its players entering four at a time while its page is read again and again;
    the page's answers."""
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

    def enter(player) -> None:
        try:
            tournament_join(player=player, tournament_id=tournament.pk)
        finally:
            connection.close()

    pages: list[int] = []
    with ThreadPoolExecutor(AT_A_TIME) as entering:
        entries = [entering.submit(enter, player) for player in players]
        while not all(entry.done() for entry in entries):
            pages.append(read_page(f"{site.url}/tournaments/{tournament.pk}/"))
    for entry in entries:
        entry.result()
    return tournament, pages


def _run(
    site: ServedSite, tournament: Tournament, *, kill_worker_after: float | None
) -> tuple[str, ArenaRecord]:
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
    asyncio.run(run_arena(clients, tournament.pk, ARENA_MINUTES * 60 + 150 + COUNT_GRACE_SECONDS))
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
    return summary, record


def _played_in_order(tournament: Tournament, links: list, summary: str) -> None:
    """The standings against the event scored again from its finished matches alone (each
    seat's place from the match's result, docs/tournaments.md § Points), each player's in the
    order the matches ended, whatever order the site counted them in."""
    matches = Match.objects.filter(table__in=[link.table_id for link in links])
    seats = defaultdict(dict)
    for seat in Seat.objects.filter(table__in=[link.table_id for link in links]):
        seats[seat.table_id][seat.position] = seat.player_id
    played = []
    for match in matches.filter(status=Match.Status.FINISHED):
        result, at = match.result, seats[match.table_id]
        if not result["winners"]:
            continue
        places = rating.placements(
            seats=len(at),
            winners=result["winners"],
            forfeited=result.get("forfeited", []),
            scores=result.get("scores") or [0] * len(at),
        )
        played.append((match.ended_at, {at[p]: places[p] for p in range(len(at))}))
    runs = play_order_runs(played)
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("player"))
    run = {e.player_id: runs.get(e.player_id, Run()) for e in entrants}
    assert {e.player_id: (e.score, e.on_fire) for e in entrants} == {
        pid: (r.total, r.on_fire) for pid, r in run.items()
    }, summary
    lines = {
        row.player: [(m.points, m.doubled) for m in row.record.matches]
        for row in selectors.arena_table(tournament)
    }
    assert lines == {pid: r.line for pid, r in run.items()}, summary
    rows = defaultdict(list)
    by_end = TournamentResult.objects.filter(tournament=tournament).order_by(
        "tournament_table__table__match__ended_at"
    )
    for result in by_end:
        rows[result.player_id].append((result.points, result.doubled))
    assert {pid: rows[pid] for pid in run} == {pid: r.line for pid, r in run.items()}, summary
    ranked = sorted(entrants, key=lambda e: e.rank)
    assert [run[e.player_id].total for e in ranked] == sorted(
        (r.total for r in run.values()), reverse=True
    ), summary


def _frame_as_played(tournament: Tournament, frame: dict, summary: str) -> None:
    """The last frame the players saw: the finished event, each row's score what its line of
    results adds up to, the line and the fire those of the standings (checked above against
    the matches)."""
    assert frame.get("status") == "finished", summary
    names = dict(
        Entrant.objects.filter(tournament=tournament).values_list("player__name", "player_id")
    )
    cached = {
        e.player_id: (e.score, e.on_fire) for e in Entrant.objects.filter(tournament=tournament)
    }
    lines = {row.player: row.record for row in selectors.arena_table(tournament)}
    assert len(frame["rows"]) == PLAYERS, summary
    for row in frame["rows"]:
        player = names[row["player"]]
        assert row["score"] == sum(points for points, _ in row["results"]), row
        assert [tuple(m) for m in row["results"]] == [
            (m.points, m.doubled) for m in lines[player].matches
        ], row
        assert (row["score"], row["on_fire"]) == cached[player], row


def _check(tournament: Tournament, summary: str, record: ArenaRecord) -> None:
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
    _played_in_order(tournament, links, summary)
    _frame_as_played(tournament, record.last_standings, summary)
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


def _pages_answered(entering: list[int], record: ArenaRecord, site: ServedSite) -> None:
    """Every read of the event's page was the page (a 500 logs "Internal Server Error")."""
    assert len(entering) >= 1 and len(record.pages) >= PLAYERS, (entering, record.pages)
    assert [s for s in entering + record.pages if s != 200] == [], (entering, record.pages)
    assert "Internal Server Error" not in site.output()


def test_an_arena_of_24_players_runs_to_its_prizes(site):
    tournament, entering = _arena(site)
    summary, record = _run(site, tournament, kill_worker_after=None)
    _check(tournament, summary, record)
    _pages_answered(entering, record, site)
    assert not site.problems(), site.problems()[:20]


def test_an_arena_whose_worker_is_killed_mid_event_ends_the_same(site):
    tournament, entering = _arena(site)
    summary, record = _run(site, tournament, kill_worker_after=60)
    _check(tournament, summary, record)
    _pages_answered(entering, record, site)
    assert not [line for line in site.problems() if "SIGKILL" not in line], site.problems()[:20]
