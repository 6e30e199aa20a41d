"""Who is asking: the one place a request or a websocket scope is turned into a Player."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

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


def client_ip(request: HttpRequest) -> str | None:
    """The browser's address as the trusted-proxy settings read it (ALLAUTH_TRUSTED_PROXY_COUNT,
    ALLAUTH_TRUSTED_CLIENT_IP_HEADER): the same address allauth's login limits count."""
    try:
        return get_adapter(request).get_client_ip(request)
    except PermissionDenied:
        return None
