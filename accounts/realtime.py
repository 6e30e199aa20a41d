"""Friend news for a player's open pages: the group it travels in and the message it is.

Only the sockets that draw friend news join this group (the lobby socket, held by the lobby and
the waiting room), so no other consumer has to know the message type.
"""

from __future__ import annotations

from core.realtime import publish_on_commit

FRIEND_REQUESTS = "friend.requests"  # the channel-layer type the lobby consumer handles


def friend_news_group(player_id: int) -> str:
    return f"friends.{player_id}"


def publish_friend_requests(*, player_id: int, pending: int, sender: str | None = None) -> None:
    """Tell the player's pages how many friend requests wait for them, once the change commits;
    ``sender`` names who just asked (a toast), absent when a request went away."""
    publish_on_commit(
        friend_news_group(player_id),
        {"type": FRIEND_REQUESTS, "pending": pending, "sender": sender},
    )
