"""Publishing to websockets after commit (STYLE.md § 6): a rolled-back change sends nothing.

Group names are built here only, so producers and consumers cannot drift apart.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"


def player_group(player_id: int) -> str:
    """Every socket of one player (lobby and table pages): invitations, "your match started"."""
    return f"player.{player_id}"


def table_seat_group(table_id: int, seat: int) -> str:
    return f"table.{table_id}.seat.{seat}"


def table_spectator_group(table_id: int) -> str:
    return f"table.{table_id}.watch"


def table_group(table_id: int) -> str:
    """Everyone at or watching a table, for messages that are the same for all (presence)."""
    return f"table.{table_id}.all"


def send_now(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def publish_on_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (now if none)."""
    transaction.on_commit(lambda: send_now(group, message))
