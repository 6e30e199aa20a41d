"""A new row and the rows that point to it, written together (``core.rows.insert_with_children``):
one statement on PostgreSQL for a quick-play, tournament or rematch table and its seats. The rows
are those the ORM would write, and every instance gets its key."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import rows
from games.models import Seat, Table

pytestmark = pytest.mark.django_db


def test_a_table_and_its_seats_are_written_as_the_orm_would_and_get_their_keys(alice, bob):
    table = Table(
        game="japanese_joker",
        options={"points": 11},
        speed="fast",
        visibility=Table.Visibility.POOL,
        creator=alice,
        seats_total=2,
    )
    seats = [Seat(player=alice, position=1, connected=False), Seat(player=bob, position=0)]
    with CaptureQueriesContext(connection) as queries:
        rows.insert_with_children(table, seats, connection)
    written = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(written) == (1 if connection.vendor == "postgresql" else 2), written
    stored = Table.objects.get(pk=table.pk)
    assert (stored.game, stored.options, stored.creator_id, stored.status) == (
        "japanese_joker",
        {"points": 11},
        alice.pk,
        Table.Status.OPEN,
    )
    assert stored.created_at == table.created_at is not None  # auto_now_add, as the ORM
    assert not table._state.adding and all(seat.table_id == table.pk for seat in seats)
    assert {
        (seat.pk, seat.player_id, seat.position, seat.connected, seat.active)
        for seat in Seat.objects.filter(table=stored)
    } == {
        (seats[0].pk, alice.pk, 1, False, True),
        (seats[1].pk, bob.pk, 0, True, True),
    }
