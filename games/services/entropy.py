"""Player entropy at the table (docs/fairness.md § Player entropy; the derivation and the record
are ``games.entropy``): a seat's commitment when it sits, the request to reveal once the table is
full, the values as they come, and the start when every value is in or the window is over.

The server draws its secret when it first asks (before any value is revealed) and keeps it on the
table until the match starts; a seat that committed is asked again every sweep while the window is
open (a page still loading hears it within ``LIVE_SWEEP_SECONDS``). A seat that never committed
(a computer, a client that does not take part) is not waited for.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from core.errors import ServiceError

from .. import realtime
from ..entropy import entropy_record, is_hex_64, match_seed, sha256_hex
from ..models import Seat, Table

# The channel-layer event the player's sockets (the table's, the waiting room's lobby socket) turn
# into a `reveal` frame (games/entropy_socket.py, games/consumers/lobby.py).
REVEAL = "player.reveal"


def checked_commitment(value: Any) -> str:
    """A commitment as a form or a message gives it: "" (none) or 64 lowercase hex digits."""
    if value in (None, ""):
        return ""
    if not is_hex_64(value):
        raise ServiceError(
            gettext("A commitment is the SHA-256 of your value: 64 lowercase hex digits."),
            code="bad_entropy",
        )
    return str(value)


def _own_seat(table_id: int, player: Player | None) -> tuple[Table, Seat]:
    from .tables import locked_table  # (tables starts matches with this module)

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
    from .tables import table_start

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
        if not _waiting_for(table):
            table_start(table)


def _waiting_for(table: Table) -> list[Seat]:
    """The seats still to reveal: they committed and have not."""
    return list(table.seats.filter(active=True, entropy_revealed="").exclude(entropy_commitment=""))


def _window_over(table: Table, now: datetime) -> bool:
    asked = table.reveal_asked_at
    return asked is not None and now >= asked + timedelta(seconds=settings.ENTROPY_REVEAL_SECONDS)


def reveals_pending(table: Table, now: datetime | None = None) -> bool:
    """At the start of a full table (locked): whether to wait for values. The first time a seat
    that committed is still to reveal, the server draws its secret and asks."""
    now = now or timezone.now()
    waiting = _waiting_for(table)
    if not waiting or _window_over(table, now):
        return False
    if table.reveal_asked_at is None:
        table.reveal_asked_at = now
        table.entropy_secret = table.entropy_secret or secrets.token_hex(32)
        table.save(update_fields=["reveal_asked_at", "entropy_secret"])
    _ask(table, waiting)
    return True


def reveal_request(table: Table, seat: Seat) -> dict[str, Any] | None:
    """What the table asks ``seat`` now (the ``reveal`` frame's fields), or None."""
    if table.status != Table.Status.OPEN or table.reveal_asked_at is None:
        return None
    if not seat.entropy_commitment or seat.entropy_revealed:
        return None
    return {
        "table": table.pk,
        "commitment": seat.entropy_commitment,
        "server_commitment": sha256_hex(table.entropy_secret),
    }


def _ask(table: Table, seats: list[Seat]) -> None:
    for seat in seats:
        asked = reveal_request(table, seat)
        if asked is None:
            continue
        event = {"type": REVEAL, **asked}
        realtime.publish_on_commit(realtime.table_player_group(table.pk, seat.player_id), event)
        realtime.publish_on_commit(realtime.player_group(seat.player_id), event)


def deal_seed(table: Table, seats: list[Seat]) -> tuple[str, dict[str, Any]]:
    """The seed of the match starting at ``table`` and its ``entropy`` record, from the
    server's secret (drawn now if nobody was asked) and each seat's value."""
    secret = table.entropy_secret or secrets.token_hex(32)
    pairs = [(seat.entropy_commitment, seat.entropy_revealed) for seat in seats]
    entropy = entropy_record(secret, pairs)
    seed = match_seed(secret, [entry["value"] for entry in entropy["seats"]])
    return seed, entropy


def entropy_reset(table: Table) -> None:
    """A seat left a full table during its window: the next fill asks again (the values
    revealed and the secret stay: each was fixed before anyone could see the others)."""
    if table.reveal_asked_at is not None:
        table.reveal_asked_at = None
        table.save(update_fields=["reveal_asked_at"])


def reveals_sweep(*, now: datetime | None = None) -> int:
    """The sweep's part (every ``LIVE_SWEEP_SECONDS``): ask again the seats still to reveal,
    and start the tables whose window is over. The number started."""
    from .tables import table_start

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
            if _window_over(table, now):
                started += table_start(table, now) is not None
            else:
                _ask(table, _waiting_for(table))
    return started
