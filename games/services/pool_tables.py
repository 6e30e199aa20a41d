"""Quick play's tables between the pairing and the start: the match starts when the last
player opens the table, and a table not everyone opened in time is called off (docs/protocol.md
§ Quick play). No coin moves before the start."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from datetime import datetime

from django.db import connections, transaction
from django.utils import timezone

from core import realtime as core_realtime
from core.rows import prepared_cursor

from .. import realtime
from ..models import PoolEntry, PoolTicket, Seat, Table, TableConnection
from .matches import connection_stale, table_seats
from .move_rows import present_players
from .tables import locked_table, table_start


def _lock_tickets(table: Table) -> None:
    """The table's tickets, before their entries go: a ticket first, then its entries, in every
    path (a player's leave takes theirs in that order too), or two deletes deadlock."""
    list(PoolTicket.objects.select_for_update().filter(table=table).order_by("pk").values("pk"))


_tickets_gone_statements: dict[str, str] = {}


def _tickets_gone(table: Table) -> None:
    """The started table's tickets and their entries, in that lock order. One statement on
    PostgreSQL (the ORM's delete was four: the lock, the read, each table's delete), where the
    foreign keys are checked at the commit."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        _lock_tickets(table)
        PoolTicket.objects.filter(table=table).delete()
        return
    if connection.alias not in _tickets_gone_statements:
        quote = connection.ops.quote_name
        tickets, entries = PoolTicket._meta, PoolEntry._meta
        ticket_pk = quote(tickets.pk.column)
        ticket_table = quote(tickets.get_field("table").column)
        entry_ticket = quote(entries.get_field("ticket").column)
        _tickets_gone_statements[connection.alias] = (
            f"WITH locked AS (SELECT {ticket_pk} AS id FROM {quote(tickets.db_table)} "
            f"WHERE {ticket_table} = %s ORDER BY {ticket_pk} FOR UPDATE), "
            f"entries AS (DELETE FROM {quote(entries.db_table)} "
            f"WHERE {entry_ticket} IN (SELECT id FROM locked)) "
            f"DELETE FROM {quote(tickets.db_table)} WHERE {ticket_pk} IN (SELECT id FROM locked)"
        )
    with prepared_cursor(connection) as cursor:
        cursor.execute(_tickets_gone_statements[connection.alias], [table.pk])


def pool_table_arrived(table_id: int) -> bool:
    """A socket opened a quick-play table: once every player has one open, the match starts
    (the stakes taken then). Called with the socket's row saved; True if it started."""
    with transaction.atomic():
        table = locked_table(table_id)  # Lock: two arrivals at once start it once.
        return pool_table_arrive(table, table_seats(table_id), now=timezone.now())


def pool_table_arrive(
    table: Table, seats: list[Seat], *, now: datetime, present: set[int | None] | None = None
) -> bool:
    """:func:`pool_table_arrived` for a caller that holds the table's lock and has read its seats
    and who is present (the socket that registers its row in the same transaction)."""
    if table.visibility != Table.Visibility.POOL or table.status != Table.Status.OPEN:
        return False
    people = {seat.player_id for seat in seats if not seat.is_bot}
    if present is None:
        present = present_players(table.pk, since=now - connection_stale())
    if not people <= present or len(seats) != table.seats_total:
        return False
    match = table_start(table, now, seats=seats, present=present)
    if match is None and table.stood_up_for_stake_id is None:
        return False  # the seats' values for the deal are on their way (services.entropy)
    if match is None:  # someone could no longer cover the stake: they leave the pool
        broke = table.stood_up_for_stake_id
        table_id = table.pk
        transaction.on_commit(
            lambda: pool_table_call_off(table_id, now=timezone.now(), leaving={broke or 0})
        )
        return False
    _tickets_gone(table)
    return True


def pool_table_call_off(
    table_id: int, *, now: datetime, leaving: AbstractSet[int] = frozenset()
) -> None:
    """The table is not played: its seats freed, the players who opened it (and did not
    leave) back to the head of their pools, the others out of them."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.visibility != Table.Visibility.POOL or table.status != Table.Status.OPEN:
            return
        people = set(
            Seat.objects.filter(table=table, is_bot=False).values_list("player_id", flat=True)
        )
        here = set(
            TableConnection.objects.filter(table=table, player_id__in=people).values_list(
                "player_id", flat=True
            )
        )
        back = here - set(leaving)
        _lock_tickets(table)
        PoolTicket.objects.filter(table=table, player_id__in=back).update(
            table=None, paired_at=None
        )
        PoolTicket.objects.filter(table=table).delete()
        Seat.objects.filter(table=table).update(active=False)
        table.status = Table.Status.CANCELLED
        table.ended_at = now
        table.save(update_fields=["status", "ended_at"])
        for player_id in people:
            core_realtime.publish_on_commit(
                realtime.player_group(player_id),
                {"type": "player.pool_called_off", "table": table_id, "back": player_id in back},
            )
        core_realtime.publish_on_commit(
            realtime.table_group(table_id),
            realtime.frame_event({"type": "called_off", "table": table_id, "url": "/"}),
        )
