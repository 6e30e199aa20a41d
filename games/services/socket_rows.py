"""What a socket's open writes and reads before a match exists, as statements written once per
database connection alias (``core.rows``): its presence row with its process's heartbeat row,
and an open table locked with its seats.

Quick play opens two of these sockets a pair; compiled by the ORM they were eight statements of
the pair's path (issue 43, tests/games/test_pair_statements.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

from accounts.models import Player
from core.rows import Columns, prepared_cursor, split

from ..models import LiveServer, Seat, Table, TableConnection
from .move_rows import present_players

_row_statements: dict[str, str] = {}
_table_statements: dict[str, tuple[str, list[Columns]]] = {}


def _column(model: type[models.Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field) and field.column
    return field.column


@dataclass(frozen=True)
class SavedRow:
    """A socket's row written: its process's last beat, and who else had a socket open at the
    table (``move_rows.present_players``, read before this row)."""

    seen: datetime
    others: set[int | None]


def _row_statement(connection: BaseDatabaseWrapper) -> str:
    """The server row found by its name and held against the sweep's delete (``FOR KEY SHARE``
    conflicts with a delete, not with the heartbeat's update nor with other sockets), the
    presence row written from it, the server's last beat and the players present."""
    if connection.alias not in _row_statements:
        quote = connection.ops.quote_name
        servers, sockets = LiveServer._meta, TableConnection._meta
        server_pk = quote(servers.pk.column)
        name, seen = (quote(_column(LiveServer, field)) for field in ("name", "last_seen_at"))
        channel, server, table, player, since = (
            quote(_column(TableConnection, field))
            for field in ("channel_name", "server", "table", "player", "connected_at")
        )
        _row_statements[connection.alias] = (
            f"WITH s AS (SELECT {server_pk} AS id, {seen} AS seen "
            f"FROM {quote(servers.db_table)} WHERE {name} = %s FOR KEY SHARE), "
            f"c AS (INSERT INTO {quote(sockets.db_table)} ({channel}, {server}, {table}, "
            f"{player}, {since}) SELECT %s, s.id, %s, %s, %s FROM s "
            f"ON CONFLICT ({channel}) DO UPDATE SET {server} = EXCLUDED.{server}, "
            f"{table} = EXCLUDED.{table}, {player} = EXCLUDED.{player}) "
            f"SELECT s.seen, ARRAY(SELECT k.{player} FROM {quote(sockets.db_table)} k "
            f"JOIN {quote(servers.db_table)} v ON v.{server_pk} = k.{server} "
            f"WHERE k.{table} = %s AND v.{seen} >= %s) FROM s"
        )
    return _row_statements[connection.alias]


def socket_row_saved(
    *,
    channel_name: str,
    server_name: str,
    table_id: int,
    player_id: int | None,
    now: datetime,
    since: datetime,
) -> SavedRow | None:
    """Write a socket's presence row (a socket registering again after a stall keeps its row)
    under its process's heartbeat row, in one statement on PostgreSQL, and read who else is at
    the table (sockets of processes that beat since ``since``). None when the process has no
    heartbeat row yet (nothing is written then)."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        server = LiveServer.objects.filter(name=server_name).first()
        if server is None:
            return None
        others = present_players(table_id, since)
        TableConnection.objects.bulk_create(
            [
                TableConnection(
                    channel_name=channel_name,
                    server=server,
                    table_id=table_id,
                    player_id=player_id,
                )
            ],
            update_conflicts=True,
            unique_fields=["channel_name"],
            update_fields=["server", "table", "player"],
        )
        return SavedRow(seen=server.last_seen_at, others=others)
    moment, since_moment = (connection.ops.adapt_datetimefield_value(at) for at in (now, since))
    values: list[Any] = [
        server_name,
        channel_name,
        table_id,
        player_id,
        moment,
        table_id,
        since_moment,
    ]
    with prepared_cursor(connection) as cursor:
        cursor.execute(_row_statement(connection), values)
        row = cursor.fetchone()
    return None if row is None else SavedRow(seen=row[0], others=set(row[1]))


def _table_statement(connection: BaseDatabaseWrapper) -> tuple[str, list[Columns]]:
    if connection.alias in _table_statements:
        return _table_statements[connection.alias]
    quote = connection.ops.quote_name
    parts: list[Columns] = [
        Columns(Table, "t", connection),
        Columns(Player, "c", connection),
        Columns(Seat, "s", connection),
        Columns(Player, "p", connection),
    ]
    player_pk, table_pk = quote(Player._meta.pk.column), quote(Table._meta.pk.column)
    seat_table, seat_player, seat_position, creator = (
        quote(_column(model, name))
        for model, name in (
            (Seat, "table"),
            (Seat, "player"),
            (Seat, "position"),
            (Table, "creator"),
        )
    )
    players = quote(Player._meta.db_table)
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    if not lock and connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    sql = (
        f"SELECT {', '.join(part.sql for part in parts)} "
        f"FROM {quote(Table._meta.db_table)} t "
        f"LEFT JOIN {players} c ON c.{player_pk} = t.{creator} "
        f"LEFT JOIN {quote(Seat._meta.db_table)} s ON s.{seat_table} = t.{table_pk} "
        f"LEFT JOIN {players} p ON p.{player_pk} = s.{seat_player} "
        f"WHERE t.{table_pk} = %s ORDER BY s.{seat_position}{lock}"
    )
    _table_statements[connection.alias] = (sql, parts)
    return sql, parts


def locked_table_and_seats(table_id: int) -> tuple[Table, list[Seat]] | None:
    """A table's row, locked (the lock order's first), with its creator, and its seats with
    their players in position order, in one statement; None if there is no such table. Inside
    the caller's transaction."""
    connection = connections["default"]
    sql, parts = _table_statement(connection)
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, [table_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    table_columns, creator_columns = parts[:2]
    table = table_columns.build(rows[0][: len(table_columns)])
    start = len(table_columns) + len(creator_columns)
    if table.creator_id is not None:  # the outer join's creator columns are empty without one
        table.creator = creator_columns.build(rows[0][len(table_columns) : start])
    seats = []
    for row in rows:
        if row[start] is None:  # no seat taken: the outer join's one empty row
            continue
        seat, player = split(row[start:], parts[2:])
        seat.player, seat.table = player, table
        seats.append(seat)
    return table, seats
