from typing import Any

from django.http import HttpRequest

from .middleware import request_player
from .selectors import incoming_requests, wallet_of


def current_player(request: HttpRequest) -> dict[str, Any]:
    """The player (or None) and, for registered players, their coin balance and the friend
    requests waiting for them, for the navigation."""
    player = request_player(request)  # unwrapped, so templates can test {% if player %}
    if player is None:
        return {"player": None, "coin_balance": None, "friend_requests": 0}
    wallet = wallet_of(player)
    return {
        "player": player,
        "coin_balance": wallet.balance if wallet else None,
        "friend_requests": 0 if player.is_guest else incoming_requests(player).count(),
    }
