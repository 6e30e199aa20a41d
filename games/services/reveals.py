"""The seats' values for the deal as they come (docs/fairness.md § Player entropy): a commitment
from a seated player of an open table, a revealed value, and the sweep that asks again and starts
the full tables whose window is over. What a value is and how the seed follows is
``services.entropy`` (which the start of a table uses) and ``games.entropy``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from core.errors import ServiceError

from ..entropy import is_hex_64
from ..models import Seat, Table
from .entropy import ask_again, checked_commitment, waiting_for, window_over
from .lobby import table_publish
from .tables import locked_table, table_start


def _own_seat(table_id: int, player: Player | None) -> tuple[Table, Seat]:
    table = locked_table(table_id)  # Lock: the table, as every change of its seats.
    seat = None if player is None else table.seats.filter(player=player, active=True).first()
    if seat is None or table.status != Table.Status.OPEN:
        raise ServiceError(
            gettext("Only a player seated at a table that has not started takes part in its deal."),
            code="not_seated",
        )
    return table, seat


def entropy_commit(*, table_id: int, player: Player | None, commitment: Any) -> None:
    """Commit to a value (its SHA-256) for the deal, before the table is full; again to replace
    it. Once the table has asked for the values it is too late: the seat keeps what it had."""
    commitment = checked_commitment(commitment)
    with transaction.atomic():
        table, seat = _own_seat(table_id, player)
        if table.reveal_asked_at is not None:
            raise ServiceError(
                gettext("The table is full and its deal under way: it is too late to commit."),
                code="entropy_late",
            )
        seat.entropy_commitment = commitment
        seat.entropy_revealed = ""
        seat.save(update_fields=["entropy_commitment", "entropy_revealed"])


def entropy_reveal(*, table_id: int, player: Player | None, value: Any) -> None:
    """Reveal the value committed to, when the table asks; the match starts once every value
    is in. A value that does not hash to the commitment is kept, marked and not used."""
    if not is_hex_64(value):
        raise ServiceError(gettext("A value is 64 lowercase hex digits."), code="bad_entropy")
    with transaction.atomic():
        table, seat = _own_seat(table_id, player)
        if table.reveal_asked_at is None or not seat.entropy_commitment:
            raise ServiceError(
                gettext("Nothing to reveal: the table has not asked, or you did not commit."),
                code="entropy_unasked",
            )
        if seat.entropy_revealed:
            return  # the first one counts (a second tab, a repeat)
        seat.entropy_revealed = value
        seat.save(update_fields=["entropy_revealed"])
        if not waiting_for(table):
            table_start(table)
            table_publish(table)  # the lobbies: the table is playing now


def reveals_sweep(*, now: datetime | None = None) -> int:
    """The sweep's part (every ``LIVE_SWEEP_SECONDS``): ask again the seats still to reveal,
    and start the tables whose window is over. The number started."""
    now = now or timezone.now()
    started = 0
    asked = Table.objects.filter(status=Table.Status.OPEN, reveal_asked_at__isnull=False)
    for table_id in list(asked.values_list("pk", flat=True)):
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None or table.status != Table.Status.OPEN or not table.reveal_asked_at:
                continue
            if table.seats.filter(active=True).count() < table.seats_total:
                continue
            if window_over(table, now):
                started += table_start(table, now) is not None
                table_publish(table)
            else:
                ask_again(table, waiting_for(table))
    return started
