"""The rematch: after the end, every player accepts and the last acceptance opens a new table.

It sits on top of the table and match services: it makes a table like the old one and lets the
table service start it.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from accounts.models import Player
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
    for seat in players:
        busy = Seat.objects.filter(player_id=seat.player_id, active=True).first()
        if busy is not None:
            raise ServiceError(
                gettext("%(name)s is already seated at table #%(number)s.")
                % {"name": seat.player.display_name, "number": busy.table_id},
                code="already_seated",
            )
    creator = next(
        (s.player for s in players if s.player_id == table.creator_id), players[0].player
    )
    try:
        with transaction.atomic():
            new_table = Table.objects.create(
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
            for seat in players:
                Seat.objects.create(
                    table=new_table,
                    player=seat.player,
                    position=(seat.position + 1) % table.seats_total,
                )
            for seat in computers:
                seat_computer(
                    new_table, (seat.position + 1) % table.seats_total, seat.bot_strength or "easy"
                )
    except IntegrityError:  # one of them sat down elsewhere a moment ago
        raise ServiceError(
            gettext("A player sat down at another table."), code="already_seated"
        ) from None
    if len(players) + len(computers) == table.seats_total:
        table_start(new_table)
    table_publish(new_table)
    return new_table
