"""What a move reads before it applies, in one statement that takes the match's row lock: the
table's seats with their players, the table, its match, and whether the mover's session is
still alive; and who has a live socket at a table, which every socket's open and close reads.

Every move, leave and forfeit of a player starts here, so the statements are written once per
database connection alias (``core.rows``) instead of being compiled by the ORM each time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.sessions.models import Session
from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from accounts.models import Player
from core.rows import Columns, prepared_cursor, split

from ..models import LiveServer, Match, Seat, Table, TableConnection


@dataclass(frozen=True)
class AtTable:
    """The locked match (None before it starts) and the seats in position order."""

    match: Match | None
    seats: list[Seat]
    session_alive: bool  # the mover's session exists and has not expired (True without one)


_statements: dict[str, tuple[str, list[Columns]]] = {}
_version_statements: dict[str, str] = {}
_present_statements: dict[str, str] = {}
_MATCH_TABLE = Match._meta.get_field("table")


def _column(model: type[models.Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field) and field.column
    return field.column


def _statement(connection: BaseDatabaseWrapper) -> tuple[str, list[Columns]]:
    if connection.alias in _statements:
        return _statements[connection.alias]
    quote = connection.ops.quote_name
    parts: list[Columns] = [
        Columns(Seat, "s", connection),
        Columns(Player, "p", connection),
        Columns(Table, "t", connection),
        Columns(Match, "m", connection),
    ]
    columns = ", ".join(part.sql for part in parts)
    session = Session._meta
    alive = (
        f"EXISTS (SELECT 1 FROM {quote(session.db_table)} WHERE "
        f"{quote(session.get_field('session_key').column)} = %s AND "
        f"{quote(session.get_field('expire_date').column)} > %s)"
    )
    # The lock is the match row's only (as ``matches.locked_match``): the table services lock
    # the table row, and the seats are written only under this lock.
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = " FOR UPDATE OF m"
    elif connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    seat_table, seat_player, seat_position, match_table = (
        quote(_column(model, name))
        for model, name in ((Seat, "table"), (Seat, "player"), (Seat, "position"), (Match, "table"))
    )
    player_pk, table_pk = quote(Player._meta.pk.column), quote(Table._meta.pk.column)
    players = f"JOIN {quote(Player._meta.db_table)} p ON p.{player_pk} = s.{seat_player} "
    if connection.vendor == "postgresql":
        # Each seat's player by its primary key, whatever the statistics say. Without them (a
        # table that grew faster than autovacuum analyses it, or autovacuum off) PostgreSQL
        # guessed hundreds of seats a table and hashed the whole players table on every move:
        # 8.7 ms instead of 0.3 ms at 29,000 players (make bench). OFFSET 0 keeps the subquery
        # from being folded back into that join.
        players = (
            f"CROSS JOIN LATERAL (SELECT * FROM {quote(Player._meta.db_table)} "
            f"WHERE {player_pk} = s.{seat_player} OFFSET 0) p "
        )
    sql = (
        f"SELECT {columns}, {alive} "
        f"FROM {quote(Seat._meta.db_table)} s "
        f"{players}"
        f"JOIN {quote(Table._meta.db_table)} t ON t.{table_pk} = s.{seat_table} "
        f"JOIN {quote(Match._meta.db_table)} m ON m.{match_table} = t.{table_pk} "
        f"WHERE s.{seat_table} = %s ORDER BY s.{seat_position}{lock}"
    )
    _statements[connection.alias] = (sql, parts)
    return sql, parts


def locked_match_and_seats(
    table_id: int, *, session_key: str | None = None, now: datetime | None = None
) -> AtTable:
    """The match of a table, its row locked, with the seats and their players. Inside the
    caller's transaction."""
    connection = connections["default"]
    sql, parts = _statement(connection)
    moment = connection.ops.adapt_datetimefield_value(now or timezone.now())
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, [session_key, moment, table_id])
        rows = cursor.fetchall()
    if not rows:
        return AtTable(match=None, seats=[], session_alive=True)
    # The table, the match and the session check repeat on every row: built from the first.
    first, player, table, match, alive = split(rows[0], parts)
    first.player = player
    seats = [first]
    for row in rows[1:]:
        seat, player, *_ = split(row, parts[:2])
        seat.player = player
        seats.append(seat)
    for seat in seats:
        seat.table = table
    # The match knows its table; the table is not told its match. Both ways, as select_related
    # leaves them, was a reference cycle: every move left its match, table and the whole state
    # for the cyclic collector (~50 objects a move) instead of freeing them at once.
    _MATCH_TABLE.set_cached_value(match, table)
    return AtTable(match=match, seats=seats, session_alive=session_key is None or bool(alive))


def match_version(table_id: int) -> int:
    """The table's match version (0 before a match) for a ``pong``: one statement written once,
    prepared on PostgreSQL. Compiled by the ORM on every ping it was ~6 % of a server process's
    busy time at 500 tables (make bench, py-spy), a ping being a fifth as frequent as a move."""
    connection = connections["default"]
    if connection.alias not in _version_statements:
        quote = connection.ops.quote_name
        _version_statements[connection.alias] = (
            f"SELECT {quote(_column(Match, 'version'))} FROM {quote(Match._meta.db_table)} "
            f"WHERE {quote(_column(Match, 'table'))} = %s"
        )
    with prepared_cursor(connection) as cursor:
        cursor.execute(_version_statements[connection.alias], [table_id])
        row = cursor.fetchone()
    return row[0] if row else 0


def present_players(table_id: int, since: datetime) -> set[int | None]:
    """The players with a socket open at the table (None for a visitor's), counting only the
    sockets of server processes that beat since ``since``."""
    connection = connections["default"]
    if connection.alias not in _present_statements:
        quote = connection.ops.quote_name
        sockets, servers = TableConnection._meta, LiveServer._meta
        player, server, table = (
            quote(_column(TableConnection, name)) for name in ("player", "server", "table")
        )
        _present_statements[connection.alias] = (
            f"SELECT c.{player} FROM {quote(sockets.db_table)} c "
            f"JOIN {quote(servers.db_table)} s ON s.{quote(servers.pk.column)} = c.{server} "
            f"WHERE c.{table} = %s AND s.{quote(_column(LiveServer, 'last_seen_at'))} >= %s"
        )
    moment = connection.ops.adapt_datetimefield_value(since)
    with prepared_cursor(connection) as cursor:
        cursor.execute(_present_statements[connection.alias], [table_id, moment])
        return {row[0] for row in cursor.fetchall()}
