"""Both players accept the rematch at the same instant, on PostgreSQL: each acceptance waits for
the other's lock and must then see it, so the new table opens once (a lock taken in the same
statement as the seats' read left the second blind to the first: neither opened it)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games.models import Match, Table
from games.services import moves, rematch
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
