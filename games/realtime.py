"""The channel-layer groups of the games app and the message types that travel through them.

Group names are built here only, so producers and consumers cannot drift apart. Publishing after
commit is ``core.realtime``'s, re-exported here as the games app's one way to publish.
"""

from __future__ import annotations

from typing import Any

from core.realtime import Message, publish_on_commit, send_all, send_now
from core.websocket import frame_text

__all__ = ["Message", "frame_event", "publish_on_commit", "send_all", "send_now"]

LOBBY_GROUP = "lobby"
FRAME = "table.frame"  # the channel-layer type of a frame for the table consumer to forward
ROLE = "table.role"  # who holds a seat changed: every socket at the table asks again


def frame_event(frame: dict[str, Any]) -> dict[str, Any]:
    """The channel-layer message that carries ``frame`` to the table sockets of a group.

    The frame travels as the JSON text the sockets send, encoded once for the whole group
    rather than once per socket, with the little a socket reads before forwarding it beside it
    (what it is, whose seat a state is for, its version). A socket then holds text, not the
    frame's objects, once it has forwarded it (channels' dispatch loop keeps the last message
    of every idle socket)."""
    return {
        "type": FRAME,
        "kind": frame["type"],
        "seat": frame.get("seat"),
        "version": frame.get("version"),
        "text": frame_text(frame),
    }


def player_group(player_id: int) -> str:
    """Every lobby socket of one player: invitations, "your match started"."""
    return f"player.{player_id}"


def table_player_group(table_id: int, player_id: int) -> str:
    """The sockets one player has open at one table: a seat's view goes to whoever holds the
    seat, so a socket kept open after standing up can never receive the next player's cards."""
    return f"table.{table_id}.player.{player_id}"


def table_spectator_group(table_id: int) -> str:
    return f"table.{table_id}.watch"


def table_group(table_id: int) -> str:
    """Everyone at or watching a table, for messages that are the same for all (presence)."""
    return f"table.{table_id}.all"
