"""What a socket's open writes, as a statement written once per database connection alias
(``core.rows``): its presence row with its process's heartbeat row, and who else is at the table.

Quick play opens two of these sockets a pair; compiled by the ORM they were eight statements of
the pair's path (issue 43, tests/games/test_pair_statements.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

from core.rows import prepared_cursor

from ..models import LiveServer, TableConnection
from .move_rows import present_players

_row_statements: dict[str, str] = {}


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
