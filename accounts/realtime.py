"""The channel-layer groups of accounts and the messages they carry: the end of a player's
sockets, and friend news for their open pages.

Every socket of a player joins their sockets group (``accounts.sockets``). Only the sockets that
draw friend news join the friends group (the lobby socket, held by the lobby and the waiting
room), so no other consumer has to know its message type.
"""

from __future__ import annotations

from core.realtime import publish_on_commit

SESSION_ENDED = "session.ended"  # the channel-layer type every socket consumer handles
FRIEND_REQUESTS = "friend.requests"  # the channel-layer type the lobby consumer handles


def sockets_group(player_id: int) -> str:
    """Every websocket one player has open, on any page."""
    return f"sockets.{player_id}"


def end_sockets(*, player_id: int, session_key: str | None = None) -> None:
    """Close the player's sockets (those of one session, or all) once the change commits."""
    publish_on_commit(sockets_group(player_id), {"type": SESSION_ENDED, "session_key": session_key})


def friend_news_group(player_id: int) -> str:
    return f"friends.{player_id}"


def publish_friend_requests(*, player_id: int, pending: int, sender: str | None = None) -> None:
    """Tell the player's pages how many friend requests wait for them, once the change commits;
    ``sender`` names who just asked (a toast), absent when a request went away."""
    publish_on_commit(
        friend_news_group(player_id),
        {"type": FRIEND_REQUESTS, "pending": pending, "sender": sender},
    )
