"""What waited for a lock sees what the lock's holder wrote, on PostgreSQL. A row lock taken in
the same statement as a read of other rows leaves those rows as they were before the wait
(PostgreSQL refreshes the locked rows only): the second of two rematch acceptances was blind to
the first, and neither opened the table."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games.models import Match, Seat, Table
from games.services import moves, presence, rematch, tables
from tests.support.live import start_table
from tests.support.matches import every_seat_moves

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # read anew inside the transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def test_two_acceptances_at_the_same_instant_open_the_rematch_once(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    every_seat_moves(table)
    moves.match_leave(table_id=table.pk, player=alice)  # bob wins by forfeit
    errors: list[BaseException] = []

    def accept(player) -> None:
        try:
            rematch.rematch_accept(table_id=table.pk, player=player)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(player,)) for player in (alice, bob)]
    with transaction.atomic():
        Match.objects.select_for_update().get(table=table)  # both acceptances queue behind this
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 4  # within the connections' lock_timeout (5 s)
        while _waiting_on_locks() < 2:
            assert time.monotonic() < deadline, ("the acceptances never both waited", errors)
            time.sleep(0.02)
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    opened = Table.objects.filter(rematch_of=table)
    assert opened.count() == 1, "the rematch did not open once"
    assert opened.get().status == Table.Status.PLAYING


def test_a_socket_that_waited_for_a_join_sees_the_new_seat(alice, bob, carol):
    table = tables.table_create(
        creator=alice, game="classic_joker", options=None, stake=0, visibility="public"
    )
    snapshots: list = []
    errors: list[BaseException] = []

    def open_socket() -> None:
        try:
            snapshots.append(
                presence.socket_connect(
                    table_id=table.pk, player=alice, channel_name="a!1", server_name="web-1"
                )
            )
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=open_socket)
    with transaction.atomic():  # bob's join, as table_join writes it: the table's lock first
        locked = Table.objects.select_for_update().get(pk=table.pk)
        Seat.objects.create(table=locked, player=bob, position=1)
        thread.start()
        deadline = time.monotonic() + 4  # within the connections' lock_timeout (5 s)
        while _waiting_on_locks() < 1:
            assert time.monotonic() < deadline, ("the socket never waited", errors)
            time.sleep(0.02)
    thread.join(timeout=30)
    assert not errors, errors
    (snapshot,) = snapshots
    seated = [seat["name"] for seat in snapshot.frame["seats"] if seat]
    assert "bob" in seated, snapshot.frame["seats"]
