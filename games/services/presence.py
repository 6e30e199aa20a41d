"""Who is at a table: sockets connecting and closing, the server heartbeat, and the sweep.

A socket's role (a seat, or spectator) follows its player, never a seat number: every frame that
names a seat's cards goes to the sockets of the player who holds the seat now, and every
snapshot looks the seat up again. Presence counts a player's live sockets, whatever role they
had when they opened (docs/protocol.md § Presence).

Each server process writes one heartbeat row for all its sockets (``LiveServer``); a process
that stops beating (``kill -9``) is removed by the sweep with its sockets, and those seats turn
absent. The sweep also plays due turns and forfeits emptied absence banks, claiming each match
with ``SKIP LOCKED`` so that two sweeps, or a sweep and a move, never wait on each other.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from core import rows
from core.errors import ServiceError

from .. import access, frames, hooks
from ..models import LiveServer, Match, Seat, Table, TableConnection
from .matches import (
    connection_stale,
    engine_state,
    locked_match,
    refresh_connected,
    table_seats,
)
from .move_rows import locked_match_and_seats, present_players
from .moves import forfeit_absent_seat, play_due_turn
from .pool_tables import pool_table_arrive
from .socket_rows import SavedRow, socket_row_saved
from .turns import arm_clocks, tell_presence

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """A socket's role at the table now (its seat, None for a spectator) and its ``state``."""

    seat: int | None
    frame: dict[str, Any]


def _no_table() -> ServiceError:
    """Not seeing and not existing give the same error, so a socket cannot probe for tables."""
    return ServiceError(gettext("There is no such table."), code="no_table")


def _table(table_id: int, *, lock: bool = False) -> Table:
    rows = Table.objects.filter(pk=table_id).select_related("creator")
    if lock:
        rows = rows.select_for_update(of=("self",))
    table = rows.first()
    if table is None:
        raise _no_table()
    return table


def _require_visible(table: Table, player: Player | None, seats: list[Seat]) -> None:
    seated = player is not None and any(seat.player_id == player.pk for seat in seats)
    if not access.may_see(player, table, seated=seated):
        raise _no_table()


def _seat_told(seats: list[Seat], player: Player | None) -> None:
    """The player opened the table: they know of their seat (``paired_tables.seat_told``)."""
    mine = next((seat for seat in seats if player and seat.player_id == player.pk), None)
    if mine is not None and not mine.told:
        Seat.objects.filter(pk=mine.pk).update(told=True)
        mine.told = True


def _snapshot(
    table: Table, match: Match | None, seats: list[Seat], player: Player | None, now: datetime
) -> Snapshot:
    seat = next(
        (s.position for s in seats if player is not None and s.player_id == player.pk), None
    )
    state = engine_state(match) if match is not None else None
    rematch_table = None
    if match is not None and match.status != Match.Status.PLAYING:
        rematch_table = (
            Table.objects.filter(rematch_of_id=table.pk).values_list("pk", flat=True).first()
        )
    frame = frames.state_frame(
        table, match, state, seats, seat, now, rematch_table_id=rematch_table
    )
    return Snapshot(seat=seat, frame=frame)


def table_snapshot(
    *, table_id: int, player: Player | None, now: datetime | None = None
) -> Snapshot:
    """A fresh ``state`` for one socket (``sync``, after ``stale``, after its role changed)."""
    now = now or timezone.now()
    table = _table(table_id)
    seats = table_seats(table_id)
    _require_visible(table, player, seats)
    match = Match.objects.filter(table_id=table_id).first()
    return _snapshot(table, match, seats, player, now)


def _server(name: str, now: datetime) -> LiveServer:
    """The process's heartbeat row, made fresh when it is old: a process whose sockets had all
    closed stopped beating with them, and the sweep must not take it for dead (and delete the
    new socket's row with it) as its next socket opens. Fresh rows are left alone, so a storm
    of connections does not queue on the one row."""
    beat = timedelta(seconds=settings.LIVE_HEARTBEAT_SECONDS)
    LiveServer.objects.filter(name=name, last_seen_at__lt=now - beat).update(last_seen_at=now)
    server, _ = LiveServer.objects.get_or_create(name=name, defaults={"last_seen_at": now})
    return server


def socket_connect(
    *,
    table_id: int,
    player: Player | None,
    channel_name: str,
    server_name: str,
    now: datetime | None = None,
) -> Snapshot:
    """Register one socket (a row) and return its first snapshot; its seat turns present."""
    now = now or timezone.now()
    with transaction.atomic():
        # Lock: presence and clocks change together with moves, never between them. A started
        # match comes with its table and seats in the move's one statement (a storm of
        # connections queued on the three the ORM compiled, make bench); before the start
        # there is no match row to lock.
        at_table = locked_match_and_seats(table_id, now=now)
        match, seats = at_table.match, at_table.seats
        if match is None:
            # Lock: an open table's row (the lock order's first), so the quick-play start below
            # happens once whichever of its players arrives last. Its seats are read after the
            # lock, in a statement of their own: read in the lock's statement, they would be as
            # they were before a join this socket waited for (PostgreSQL refreshes locked rows
            # only).
            table = _table(table_id, lock=True)
            if table.status != Table.Status.OPEN:  # started while this waited for the lock
                at_table = locked_match_and_seats(table_id, now=now)
                match, seats = at_table.match, at_table.seats
            if match is None:
                seats = table_seats(table_id)
        if match is not None:
            table = match.table
        _require_visible(table, player, seats)
        present = _save_socket_row(channel_name, server_name, table_id, player, now)
        hooks.socket_opened(table_id=table_id, player=player)  # social: absences are theirs now
        _seat_told(seats, player)
        if match is not None:
            _presence_changed(match, seats, now, live=present)
        snapshot = _snapshot(table, match, seats, player, now)
        if match is None and player is not None and table.visibility == Table.Visibility.POOL:
            # The last player to arrive starts a quick-play match, in this transaction: the
            # table, its seats and this socket's row are already in hand.
            pool_table_arrive(table, seats, now=now, present=present)
    return snapshot


def _save_socket_row(
    channel_name: str, server_name: str, table_id: int, player: Player | None, now: datetime
) -> set[int | None]:
    """The socket's row under its process's heartbeat row, in one statement while the process
    beats; returns who is at the table now, this socket's player included. Its first socket
    makes the heartbeat row; a process whose sockets had all closed stopped beating with them,
    and its row is made fresh here, so that the sweep does not take it for dead (and delete
    this row with it) before its heartbeat starts again."""
    player_id = player.pk if player is not None else None
    since = now - connection_stale()

    def save() -> SavedRow | None:
        return socket_row_saved(
            channel_name=channel_name,
            server_name=server_name,
            table_id=table_id,
            player_id=player_id,
            now=now,
            since=since,
        )

    saved = save()
    if saved is None:
        _server(server_name, now)
        saved = save()
        assert saved is not None  # the row was made just now, in this transaction
    elif saved.seen < now - timedelta(seconds=settings.LIVE_HEARTBEAT_SECONDS):
        _server(server_name, now)
        if saved.seen < since:  # a stalled process: its other sockets were not counted
            return present_players(table_id, since)
    return saved.others | {player_id}


def socket_disconnect(*, channel_name: str, now: datetime | None = None) -> None:
    """A socket closed: drop its row; its seat is absent if it was its player's last one."""
    now = now or timezone.now()
    row = (
        TableConnection.objects.filter(channel_name=channel_name)
        .values("pk", "table_id", "player_id")
        .first()
    )
    if row is None:
        return
    with transaction.atomic():
        match = locked_match(table_id=row["table_id"])  # Lock: see socket_connect.
        TableConnection.objects.filter(pk=row["pk"]).delete()
        if match is not None:
            _presence_changed(match, table_seats(row["table_id"]), now)


def server_channels(*, server_name: str) -> set[str]:
    """The sockets one process has rows for."""
    return set(
        TableConnection.objects.filter(server__name=server_name).values_list(
            "channel_name", flat=True
        )
    )


def sockets_gone(*, channel_names: set[str], now: datetime | None = None) -> None:
    """Sockets that ended without their close reaching the database: each is closed as if it
    had (their seats turn absent, the clocks re-arm)."""
    for channel_name in sorted(channel_names):
        socket_disconnect(channel_name=channel_name, now=now)


def _presence_changed(
    match: Match, seats: list[Seat], now: datetime, *, live: set[int | None] | None = None
) -> None:
    """Recompute who is here (``live``: as the caller holding the lock just read it), re-arm
    the clocks, tell the table. Lock held."""
    watched = match.watched
    changed = refresh_connected(match, seats, now, live=live)
    saving = ["watched"] if match.watched != watched else []
    state = None
    if match.status == Match.Status.PLAYING:
        state = engine_state(match)
        if arm_clocks(match, state, seats, now, new_turn=False):
            saving += ["turn_deadline", "turn_on_bank"]
            changed = True
    if changed:
        tell_presence(match, state, seats, now, saving=saving)
    elif saving:
        rows.update(match, saving, connections["default"])


def server_beat(*, server_name: str, now: datetime | None = None) -> bool:
    """One process's heartbeat for all its sockets: one UPDATE. False when the row was gone
    (the sweep took the process for dead after a long stall): its sockets register again."""
    now = now or timezone.now()
    if LiveServer.objects.filter(name=server_name).update(last_seen_at=now):
        return True
    _server(server_name, now)
    return False


def server_stop(*, server_name: str) -> None:
    """A process shutting down cleanly takes its heartbeat row with it."""
    lost = set(
        TableConnection.objects.filter(server__name=server_name).values_list(
            "table_id", "player_id"
        )
    )
    LiveServer.objects.filter(name=server_name).delete()
    hooks.sockets_lost(lost, now=timezone.now())


# --- The sweep ------------------------------------------------------------------------------------


def live_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The clock of the site (beat, every ``LIVE_SWEEP_SECONDS``): dead servers' sockets, turns
    whose clock ran out, computer seats whose move was lost, absence banks that ran dry."""
    now = now or timezone.now()
    counts = {"servers": 0, "forfeits": 0, "turns": 0}
    cutoff = now - timedelta(seconds=settings.LIVE_CONNECTION_STALE_SECONDS)
    touched: set[int] = set()
    for server_id, name, last_seen in LiveServer.objects.filter(
        last_seen_at__lt=cutoff
    ).values_list("pk", "name", "last_seen_at"):
        rows = list(
            TableConnection.objects.filter(server_id=server_id).values_list("table_id", "player_id")
        )
        lost = set(rows)
        # Claim by deleting: of two sweeps, only one removes the server (its sockets go with it).
        if LiveServer.objects.filter(pk=server_id, last_seen_at__lt=cutoff).delete()[0]:
            if lost:  # a process that stopped beating with sockets open: dead, or stalled
                logger.warning(
                    "Server process %s last beat %.0f s ago: its %s table sockets are taken for "
                    "gone.",
                    name,
                    (now - last_seen).total_seconds(),
                    len(rows),
                )
            counts["servers"] += 1
            touched |= {table_id for table_id, _player in lost}
            hooks.sockets_lost(lost, now=now)  # social: those absences are the server's
    for table_id in sorted(touched):
        with transaction.atomic():
            match = locked_match(table_id=table_id)  # Lock: presence changes like a move.
            if match is not None:
                _presence_changed(match, table_seats(table_id), now)
    overdue_seats = Seat.objects.filter(
        bank_deadline__lte=now,
        connected=False,
        forfeited=False,
        table__match__status=Match.Status.PLAYING,
    ).values_list("table__match__pk", "position")
    for match_id, position in list(overdue_seats):
        counts["forfeits"] += forfeit_absent_seat(
            match_id=match_id, seat=position, now=now, skip_locked=True
        )
    overdue_turns = Match.objects.filter(
        status=Match.Status.PLAYING, turn_deadline__lte=now
    ).values_list("pk", "version")
    for match_id, version in list(overdue_turns):
        counts["turns"] += play_due_turn(
            match_id=match_id, version=version, now=now, skip_locked=True
        )
    return counts
