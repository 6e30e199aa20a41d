"""What the lobby shows of a table, telling every lobby (and waiting room) when it changes, and
closing the open tables nobody joined.

A hidden table is projected out at the source: a friends-only table's events go only to the
players who may see it (``games.access``), so a lobby socket relays whatever reaches it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from .. import access, hooks, realtime
from ..catalog import GAME_TITLES, describe_options
from ..models import Table
from .clock import speed_limits
from .publishing import publish_roles

# --- A table's speed in words ------------------------------------------------------------------


def _seconds(value: float) -> str:
    return f"{value:g}"


def speed_title(speed: str) -> str:
    """The speed's name ("Fast") in the active language; a row older than speeds is Normal,
    as its clocks are (``clock.speed_limits``)."""
    if speed not in Table.Speed.values:
        speed = Table.Speed.NORMAL
    return str(Table.Speed(speed).label)


def speed_clocks(speed: str) -> str:
    """The speed's clocks in a few words ("12 s + 30 s bank"): a turn clock and a bank for the
    whole match, the numbers read from the settings now, as the clocks are armed."""
    limits = speed_limits(speed)
    return gettext("%(turn)s s + %(bank)s s bank") % {
        "turn": _seconds(limits.turn_seconds),
        "bank": _seconds(limits.bank_seconds),
    }


def speed_text(speed: str) -> str:
    """Name and clocks in one line ("Fast · 12 s + 30 s bank"): the create form, the table's
    header and the lobby row's title say the same."""
    return f"{speed_title(speed)} · {speed_clocks(speed)}"


def speed_words(speed: str) -> dict[str, str]:
    """The speed's words of a lobby entry, in the active language (``localized`` redoes them
    for each receiver of a published entry)."""
    return {"speed_title": speed_title(speed), "speed_clocks": speed_clocks(speed)}


# --- Publishing --------------------------------------------------------------------------------


def lobby_entry(table: Table, flagged: set[int] | None = None) -> dict[str, Any]:
    """What the lobby shows of an open table; the same for the page and the websocket.

    ``flagged``: the players with a low completion rate (``hooks.low_completion``), found once
    for a whole page; looked up for this table alone when not given."""
    seats = sorted(table.seats.all(), key=lambda seat: seat.position)
    if flagged is None:
        flagged = hooks.low_completion({seat.player_id for seat in seats} | {table.creator_id})
    return {
        "id": table.pk,
        "game": table.game,
        "game_title": str(GAME_TITLES[table.game]),
        "options": describe_options(table.game, table.options),
        "options_raw": table.options,
        "stake": table.stake,
        "speed": table.speed,
        **speed_words(table.speed),
        "visibility": table.visibility,
        "seats_taken": len(seats),
        "seats_total": table.seats_total,
        "players": [seat.player.name for seat in seats],
        "creator": table.creator.name,
        "low_completion": [seat.player.name for seat in seats if seat.player_id in flagged],
        "rated": table.is_rated(seats),
        "url": f"/tables/{table.pk}/",
    }


def table_publish(table: Table, *, seated: set[int] | None = None) -> None:
    """Tell the lobby (and the table's waiting room) what the table looks like now.

    A hidden table is projected out here, at the source: a public or password table goes to
    the lobby group, a friends-only table only to the player groups of those who may see it,
    so a lobby socket relays whatever reaches it. ``seated``: the players at a table that is
    no longer open, as the caller who seated them knows (an open table is read again for its
    lobby entry).
    """
    if seated is None or table.status == Table.Status.OPEN:
        seated = None
        table = (
            Table.objects.select_related("creator", "stood_up_for_stake")
            .prefetch_related("seats__player")
            .get(pk=table.pk)
        )
    event = {
        "type": "lobby.table",
        "id": table.pk,
        "status": table.status,
        "game": table.game,
        "stake": table.stake,
        "speed": table.speed,
        "seats": table.seats_total,
        "table": lobby_entry(table) if table.status == Table.Status.OPEN else None,
    }
    publish_roles(table.pk)  # a seat may have changed hands: sockets at the table look again
    audience = access.audience(table, seated=seated)
    if audience is None:
        # The lobby socket of a player the table is not available to drops it (a block).
        event["hidden_from"] = sorted(access.shut_out(table, seated=seated))
        realtime.publish_on_commit(realtime.LOBBY_GROUP, event)
        return
    for player_id in sorted(audience):
        realtime.publish_on_commit(realtime.player_group(player_id), event)


# --- Expiry ------------------------------------------------------------------------------------


def tables_expire(*, now: datetime | None = None) -> int:
    """Cancel open tables nobody joined for ``TABLE_IDLE_MINUTES``; safe to run twice."""
    now = now or timezone.now()
    cutoff = now - timedelta(minutes=settings.TABLE_IDLE_MINUTES)
    expired = 0
    for table_id in Table.objects.filter(
        status=Table.Status.OPEN, last_activity_at__lt=cutoff
    ).values_list("pk", flat=True):
        with transaction.atomic():
            # Claim by a conditional update: a join that just happened keeps the table.
            claimed = Table.objects.filter(
                pk=table_id, status=Table.Status.OPEN, last_activity_at__lt=cutoff
            ).update(status=Table.Status.CANCELLED, ended_at=now)
            if not claimed:
                continue
            table = Table.objects.get(pk=table_id)
            table.seats.update(active=False)
            table_publish(table)
            expired += 1
    return expired
