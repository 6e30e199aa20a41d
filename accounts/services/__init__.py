"""Every write in accounts is one of these functions (STYLE.md § 4), grouped by subject."""

from .friends import (
    are_friends,
    friend_remove,
    friend_request_accept,
    friend_request_cancel,
    friend_request_decline,
    friend_request_send,
)
from .players import GUEST_PREFIX, SESSION_GUEST_KEY, player_create_guest, player_for_user

__all__ = [
    "GUEST_PREFIX",
    "SESSION_GUEST_KEY",
    "are_friends",
    "friend_remove",
    "friend_request_accept",
    "friend_request_cancel",
    "friend_request_decline",
    "friend_request_send",
    "player_create_guest",
    "player_for_user",
]
