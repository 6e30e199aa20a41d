"""Who is asking: the one place a request or a websocket scope is turned into a Player."""

from __future__ import annotations

from typing import Any

from .models import Player
from .services import SESSION_GUEST_KEY, player_for_user


def player_from(user: Any, session: Any) -> Player | None:
    """The player behind a user (registered) or a session (guest), or None for a visitor."""
    if user is not None and user.is_authenticated:
        if not user.is_active:
            return None
        return player_for_user(user=user, session=session)
    guest_id = session.get(SESSION_GUEST_KEY) if session is not None else None
    if not guest_id:
        return None
    return Player.objects.filter(pk=guest_id, user__isnull=True).first()
