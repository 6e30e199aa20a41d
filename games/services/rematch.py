"""The rematch: after the end, every player accepts and the last acceptance opens a new table.

It sits on top of the table and match services: it makes a table like the old one and lets the
table service start it.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, connections, transaction
from django.utils.translation import gettext

from accounts.models import Player
from core import rows
from core.errors import ServiceError

from .. import frames, hooks, realtime
from ..models import Match, Seat, Table
from .bots import seat_computer
from .lobby import table_publish
from .matches import locked_match, table_seats
from .tables import table_start


def rematch_accept(*, table_id: int, player: Player | None, accept: bool = True) -> dict[str, Any]:
    """Accept (or withdraw) a rematch; the last acceptance opens the new table, once.

    Same game, options, stake, speed and visibility; every player moves one seat on. The players a
    computer replaced are not asked. The new table starts at once when every seat is filled.
    """
    with transaction.atomic():
        # Lock: acceptances from every seat queue here, so the new table is made exactly once.
        # The seats are read after the lock, in a statement of their own: read in the lock's
        # statement (``move_rows.locked_match_and_seats``), they are as they were when it began
        # to wait, without the acceptance it waited for (PostgreSQL refreshes locked rows only).
        match = locked_match(table_id=table_id)
        if match is None or match.status == Match.Status.PLAYING:
            raise ServiceError(gettext("The match is still being played."), code="match_not_over")
        seats = table_seats(table_id)
        seat = next((s for s in seats if player is not None and s.player_id == player.pk), None)
        if seat is None or seat.is_bot:
            raise ServiceError(
                gettext("Only the match’s players can ask for a rematch."), code="not_seated"
            )
        table = match.table
        if accept:
            hooks.rematch_checks(table)
            hooks.join_checks(seat.player)  # a rematch is a seat like any other
        new_table_id = Table.objects.filter(rematch_of=table).values_list("pk", flat=True).first()
        if new_table_id is None:
            if seat.wants_rematch != accept:
                seat.wants_rematch = accept
                seat.save(update_fields=["wants_rematch"])
            needed = [s for s in seats if not s.is_bot]
            if accept and all(s.wants_rematch for s in needed):
                computers = [s for s in seats if s.is_bot and not s.forfeited]
                new_table_id = _open_rematch(table, needed, computers).pk
        offer = frames.rematch_public(match, seats, new_table_id)
        realtime.publish_on_commit(
            realtime.table_group(table_id),
            realtime.frame_event({"type": "rematch", **offer}),
        )
    return offer


def _open_rematch(table: Table, players: list[Seat], computers: list[Seat]) -> Table:
    """The new table: the players one seat on, and the computers seated there (a practice
    table's opponents come back, of the same strength)."""
    busy = dict(
        Seat.objects.filter(player_id__in=[seat.player_id for seat in players], active=True)
        .order_by("pk")
        .values_list("player_id", "table_id")
    )
    for seat in players:
        if seat.player_id in busy:
            raise ServiceError(
                gettext("%(name)s is already seated at table #%(number)s.")
                % {"name": seat.player.display_name, "number": busy[seat.player_id]},
                code="already_seated",
            )
    creator = next(
        (s.player for s in players if s.player_id == table.creator_id), players[0].player
    )
    try:
        with transaction.atomic():
            new_table = Table(
                game=table.game,
                options=table.options,
                stake=table.stake,
                speed=table.speed,
                visibility=table.visibility,
                password_hash=table.password_hash,
                rated=table.rated,
                creator=creator,
                seats_total=table.seats_total,
                rematch_of=table,
            )
            # Nobody has the new table open yet: its seats start absent.
            new_seats = [
                Seat(
                    player=seat.player,
                    position=(seat.position + 1) % table.seats_total,
                    connected=False,
                )
                for seat in players
            ]
            rows.insert_with_children(new_table, new_seats, connections["default"])
            for seat in computers:
                seat_computer(
                    new_table, (seat.position + 1) % table.seats_total, seat.bot_strength or "easy"
                )
    except IntegrityError:  # one of them sat down elsewhere a moment ago
        raise ServiceError(
            gettext("A player sat down at another table."), code="already_seated"
        ) from None
    if computers:  # their rows are the computers' service's
        new_seats = table_seats(new_table.pk)
    new_seats.sort(key=lambda seat: seat.position)
    if len(new_seats) == table.seats_total:
        table_start(new_table, seats=new_seats, present=set())
    table_publish(new_table, seated={seat.player_id for seat in new_seats})
    return new_table
