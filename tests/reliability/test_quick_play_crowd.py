"""Issue 28 § 2's acceptance, end to end: a crowd of players in quick play against the whole
site as ``make run`` serves it on PostgreSQL and Redis (``scripts/serve.py``: two Daphnes on one
port, a Celery worker, Celery beat running quick play's pairing sweep every second).

40 registered players, each a websocket client of ``docs/protocol.md`` § Quick play
(``tests/support/crowd.py``), join one or two of four pools of two games at random, leave at
random (while waiting, or after being paired), sometimes never open the table they were paired
at, and otherwise play legal moves until the first hand is over, then leave the match (a
forfeit) and join again. The churn lasts the issue's minute (``CHURN_SECONDS``); with the site's
start, the last hands and the checks the test takes about a minute and a half on this 2-core
machine. Should CI's time ever demand it, shorten the churn, never the crowd.

Afterwards: no player held two seats at once (every seat's table ended before the player's next
seat was taken, from the database's timestamps), every paired table got its full set of seats and
told exactly its seated players, every match that started was opened by both its players and
played past its first hand, nobody still waits or sits, ``audit_coins`` is clean, and the
server's log (every process of serve.py's) holds no traceback and no ERROR line.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import random
import time
from collections import defaultdict

import pytest
from django.core.management import call_command

from games.models import Match, MatchEvent, PoolTicket, Seat, Table
from games.rules import get_game
from tests.support.crowd import CrowdPlayer, Record, run_crowd
from tests.support.daphne import session_cookie
from tests.support.players import make_player
from tests.support.site import ServedSite

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = 40
CHURN_SECONDS = 60.0
SEED = 28


@pytest.fixture
def site(tmp_path, transactional_db):
    served = ServedSite(
        tmp_path,
        web_processes=2,
        # The crowd forfeits a rated or stake match after every first hand, on purpose: no
        # cool-down for quitters here (tests/social tests them through the services).
        COOLDOWN_QUITS="1000",
        # The clients move as fast as the server answers, far above a person's rate.
        LIVE_RATE_PER_SECOND="10000",
        LIVE_RATE_BURST="10000",
    )
    try:
        yield served.start()
    finally:
        served.stop()


def _hand_reached(match: Match) -> int:
    """The hand a match was in when it ended, replayed from its seed and events."""
    state = get_game(match.game).new_match(match.options, match.seed)
    for event in MatchEvent.objects.filter(match=match).order_by("version"):
        if event.kind in ("act", "timeout", "bot"):
            state = state.apply(event.action)
    return state.view(0)["hand_number"]


def _settled() -> bool:
    """Nobody waits, no quick-play table waits for its players, no match is being played."""
    return (
        not PoolTicket.objects.exists()
        and not Table.objects.filter(status__in=[Table.Status.OPEN, Table.Status.PLAYING]).exists()
    )


def _summary(record: Record, seconds: float) -> str:
    return (
        f"{seconds:.0f} s; tables paired {len(record.told)}, started {len(record.started)}, "
        f"called off {len(record.called_off)}; {dict(record.counts)}; errors "
        f"{dict(record.errors)}; problems {record.problems[:10]}; refusals {record.refusals[:5]}"
    )


def test_forty_players_join_and_leave_pools_at_random_and_every_pair_plays_a_hand(site):
    players = [make_player(f"crowd{index:02d}") for index in range(PLAYERS)]
    record = Record()
    crowd = [
        CrowdPlayer(record, player.pk, session_cookie(player), site.ws_url, random.Random(SEED + i))
        for i, player in enumerate(players)
    ]
    started = time.monotonic()
    asyncio.run(run_crowd(crowd, CHURN_SECONDS))
    deadline = time.monotonic() + 40  # a table nobody completed is called off after 15 s
    while not _settled() and time.monotonic() < deadline:
        time.sleep(0.5)
    summary = _summary(record, time.monotonic() - started)
    print(summary)
    assert not record.problems, summary
    assert _settled(), summary

    # Every paired table got its full set of seats, and exactly its players were told.
    tables = {
        table.pk: table
        for table in Table.objects.filter(visibility=Table.Visibility.POOL).prefetch_related(
            "seats"
        )
    }
    assert set(record.told) <= set(tables), summary
    for table_id, table in tables.items():
        seated = {seat.player_id for seat in table.seats.all()}
        assert len(seated) == table.seats_total == 2, (table_id, seated)
        assert record.told[table_id] == seated, (table_id, record.told[table_id], seated)
        assert table.status in (Table.Status.FINISHED, Table.Status.CANCELLED), table_id
        assert table.ended_at is not None, table_id

    # No player was seated at two tables at once: each seat's table ended before the player's
    # next seat was taken.
    seats = defaultdict(list)
    for seat in Seat.objects.filter(is_bot=False).select_related("table").order_by("joined_at"):
        seats[seat.player_id].append(seat)
    for player_id, held in seats.items():
        assert not any(seat.active for seat in held), player_id
        for before, after in itertools.pairwise(held):
            assert before.table.ended_at <= after.joined_at, (
                f"player {player_id} sat at table {after.table_id} at {after.joined_at} while "
                f"table {before.table_id} went on until {before.table.ended_at}"
            )
    # The clients' own view agrees: each player's tables started and ended one after another.
    for player_id, timeline in record.timeline.items():
        kinds = [kind for _, kind, _ in timeline]
        assert kinds == ["start", "end"] * (len(kinds) // 2), (player_id, timeline)

    # Every match that started: both players opened it, it was played past its first hand,
    # and it is over.
    matches = list(Match.objects.filter(table__visibility=Table.Visibility.POOL))
    assert matches, summary
    for match in matches:
        seated = {seat.player_id for seat in tables[match.table_id].seats.all()}
        assert record.started[match.table_id] == seated, (match.table_id, summary)
        assert record.ended[match.table_id] == seated, (match.table_id, summary)
        assert match.status == Match.Status.FINISHED, (match.pk, match.status, match.result)
        assert _hand_reached(match) >= 2, (match.pk, match.result)
    assert set(record.started) == {match.table_id for match in matches}
    # Everyone played, in both games, and the crowd did leave at random.
    assert {p for seated in record.started.values() for p in seated} == {p.pk for p in players}
    assert {match.game for match in matches} == {"japanese_joker", "japanese_whist"}
    assert record.counts["left_while_waiting"] > 0, summary
    # The only refusals a crowd meets: a join sent while its pairing was on its way (`paired`,
    # or `already_seated` for the seat the pairing gave it), and a lock not had in time on a
    # loaded machine (nothing changed; the client asks again).
    allowed = {"lobby:paired", "lobby:already_seated", "lobby:busy", "table:busy"}
    assert set(record.errors) <= allowed, summary

    audit = io.StringIO()
    call_command("audit_coins", stdout=audit)
    assert "Ledger OK" in audit.getvalue(), audit.getvalue()
    assert site.problems() == [], site.output()[-6000:]
    assert site.exits() == [], site.output()[-6000:]
