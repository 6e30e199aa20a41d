"""News of a player's own that more than one socket passes on: "your match started"."""

from __future__ import annotations

import logging
from typing import Any

from django.db import OperationalError

from core.pool import run_db
from core.websocket import GuardedJsonConsumer

from ..services.paired_tables import seat_told

logger = logging.getLogger(__name__)


async def tell_match_started(
    socket: GuardedJsonConsumer, player_id: int | None, event: dict[str, Any]
) -> None:
    """The frame to the client, then the seat noted as told: an absence from a table the pairing
    reached a page of is the player's own (social's forfeits)."""
    await socket.send_json({"type": "match_started", "table": event["table"], "url": event["url"]})
    if player_id is None:
        return
    try:
        await run_db(seat_told, table_id=event["table"], player_id=player_id)
    except OperationalError:  # the database is away: the absence stays excused, nothing worse
        logger.warning("Could not note that player %s heard of table %s", player_id, event["table"])
