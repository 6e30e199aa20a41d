"""Player entropy at the table (docs/fairness.md § Player entropy; the derivation and the record
are ``games.entropy``): a seat's commitment when it sits, the request to reveal once the table is
full, and the seed when the table starts (``services.reveals`` takes the values as they come and
starts the table when every value is in or the window is over).

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
from django.utils import timezone
from django.utils.translation import gettext

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


def waiting_for(table: Table, seats: list[Seat] | None = None) -> list[Seat]:
    """The seats still to reveal: they committed and have not (of ``seats`` when read already)."""
    if seats is not None:
        return [s for s in seats if s.active and not s.entropy_revealed and s.entropy_commitment]
    return list(table.seats.filter(active=True, entropy_revealed="").exclude(entropy_commitment=""))


def window_over(table: Table, now: datetime) -> bool:
    asked = table.reveal_asked_at
    return asked is not None and now >= asked + timedelta(seconds=settings.ENTROPY_REVEAL_SECONDS)


def reveals_pending(
    table: Table, now: datetime | None = None, *, seats: list[Seat] | None = None
) -> bool:
    """At the start of a full table (locked): whether to wait for values. The first time a seat
    that committed is still to reveal, the server draws its secret and asks."""
    now = now or timezone.now()
    waiting = waiting_for(table, seats)
    if not waiting or window_over(table, now):
        return False
    if table.reveal_asked_at is None:
        table.reveal_asked_at = now
        table.entropy_secret = table.entropy_secret or secrets.token_hex(32)
        table.save(update_fields=["reveal_asked_at", "entropy_secret"])
    ask_again(table, waiting)
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


def ask_again(table: Table, seats: list[Seat]) -> None:
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
