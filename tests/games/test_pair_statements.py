"""What seating a paired table costs in SQL statements (issue 43 § 1), pinned as the move's are
in test_moves: a quick-play pair from the pairing to both seats' first state, an arena round of
ten tables, and a rematch. A change that adds statements to these paths fails here and has to
say so; one that removes some lowers the pin.

Counted on PostgreSQL, where the bench and production run (SQLite's statements differ), with
the test's own savepoints left out: a real pairing makes none of them.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Match, Table
from games.services import moves, pools, presence, rematch
from games.services.pools import pool_named
from tests.support.live import start_table
from tests.support.matches import every_seat_moves
from tests.support.players import make_player
from tournaments.models import Tournament
from tournaments.services.entries import tournament_join
from tournaments.services.running import tournament_start

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"]
        for query in queries.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO"))
    ]


def _kinds(statements: list[str]) -> dict[str, int]:
    return dict(Counter(sql.split()[0] for sql in statements))


# Statements (8 December 2026): pairing, then each seat's socket (the second one starts the
# match in the transaction that saves its row); BEGIN and COMMIT counted. Issue 43's floor for
# the path: 20.
QUICK_PLAY = {
    "japanese_joker/fast/0/casual": (6, 7, 9),
    "japanese_joker/fast/25/rated": (6, 7, 16),  # the stakes: one ledger transaction, seven
}


@pytest.mark.parametrize("pool", sorted(QUICK_PLAY))
def test_a_quick_play_pair_from_the_pairing_to_both_seats_first_state(alice, bob, pool):
    for player in (alice, bob):
        pools.pool_join(player=player, pool_ids=[pool])
    presence.socket_connect(  # the web process's row, made once when it starts
        table_id=start_table("japanese_whist", [make_player("x"), make_player("y")]).pk,
        player=None,
        channel_name="warm!0",
        server_name="web-1",
    )
    counts = []
    with CaptureQueriesContext(connection) as queries:
        (table_id,) = pools.pool_pair(pool_named(pool))
    counts.append(len(_statements(queries)))
    for player in (alice, bob):
        with CaptureQueriesContext(connection) as queries:
            snapshot = presence.socket_connect(
                table_id=table_id,
                player=player,
                channel_name=f"pair!{player.pk}",
                server_name="web-1",
            )
        counts.append(len(_statements(queries)))
        assert snapshot is not None
    assert Match.objects.get(table_id=table_id).status == Match.Status.PLAYING
    assert tuple(counts) == QUICK_PLAY[pool], (counts, _kinds(_statements(queries)))


ARENA_ROUND_OF_TEN = 79  # 20 players, 10 tables, from the start's pairing to the last table


def test_an_arena_round_of_ten_tables(settings):
    settings.TOURNAMENT_SEAT_THREADS = 1  # one connection: every statement is counted here
    arena = Tournament.objects.create(
        name="Counted arena",
        game="japanese_joker",
        speed="fast",
        starts_at=timezone.now(),
        duration_minutes=30,
        options={"points": 11},
    )
    for index in range(20):
        tournament_join(player=make_player(f"p{index}"), tournament_id=arena.pk)
    with CaptureQueriesContext(connection) as queries:
        tournament_start(tournament_id=arena.pk)
    assert Table.objects.filter(tournament_link__tournament=arena).count() == 10
    statements = _statements(queries)
    assert len(statements) == ARENA_ROUND_OF_TEN, _kinds(statements)


REMATCH = 13  # the last acceptance: the new table, its seats and its started match


def test_the_last_rematch_acceptance_opens_and_starts_the_new_table(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    every_seat_moves(table)
    moves.match_leave(table_id=table.pk, player=alice)  # bob wins by forfeit
    rematch.rematch_accept(table_id=table.pk, player=alice)
    with CaptureQueriesContext(connection) as queries:
        offer = rematch.rematch_accept(table_id=table.pk, player=bob)
    assert offer["table"] and Table.objects.get(pk=offer["table"]).status == "playing"
    statements = _statements(queries)
    assert len(statements) == REMATCH, _kinds(statements)
