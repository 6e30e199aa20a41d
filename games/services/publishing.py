"""What a change at a table tells its sockets, after commit (games.realtime): each seat's own
view to the player who holds it, the spectators theirs, and frames that name no card to all."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .. import frames, realtime
from ..models import Match, Seat


def publish_state(match: Match, state: Any, seats: list[Seat], now: datetime) -> None:
    """Each seat's view to the player holding it, the spectators theirs; all after commit."""
    table = match.table
    for seat in seats:
        realtime.publish_on_commit(
            realtime.table_player_group(table.pk, seat.player_id),
            realtime.frame_event(
                frames.state_frame(table, match, state, seats, seat.position, now)
            ),
        )
    if match.watched:  # nobody without a seat has the table open: no spectators' frame
        realtime.publish_on_commit(
            realtime.table_spectator_group(table.pk),
            realtime.frame_event(frames.state_frame(table, match, state, seats, None, now)),
        )


def publish_to_table(table_id: int, frame: dict[str, Any]) -> None:
    """A frame that is the same for every socket at the table (it names no card)."""
    realtime.publish_on_commit(realtime.table_group(table_id), realtime.frame_event(frame))


def publish_roles(table_id: int) -> None:
    """Who holds a seat changed: every socket at the table asks again what it may see."""
    realtime.publish_on_commit(realtime.table_group(table_id), {"type": realtime.ROLE})
