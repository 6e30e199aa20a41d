"""A player gone for good: their account was deactivated (a ban, the user admin).

``accounts.services.user_deactivate`` runs :func:`seats_release` through
``ACCOUNTS_PLAYER_DEACTIVATED`` (accounts never imports games), in its own transaction, after
the user row: the seat is given up at an open table and forfeited in a running match, each
under its own lock in the order of docs/concurrency.md.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import Player

from ..models import Match, Seat, Table
from .matches import engine_state, forfeit_seat
from .move_rows import locked_match_and_seats
from .tables import table_leave


def seats_release(player: Player) -> None:
    """The player's seat: given up at an open table, forfeited (``banned``) in a match. Twice
    changes nothing."""
    seat = Seat.objects.filter(player=player, active=True).select_related("table").first()
    if seat is None:
        return
    if seat.table.status == Table.Status.OPEN:
        table_leave(player=player, table_id=seat.table_id)
        return
    with transaction.atomic():
        at_table = locked_match_and_seats(seat.table_id)  # Lock: a forfeit is a move.
        match, seats = at_table.match, at_table.seats
        mine = next((s for s in seats if s.player_id == player.pk), None)
        if match is None or mine is None or mine.forfeited:
            return
        if match.status != Match.Status.PLAYING:
            return
        forfeit_seat(match, engine_state(match), seats, mine, reason="banned", now=timezone.now())
