from typing import Any

from django.http import HttpRequest

from .selectors import incoming_requests, wallet_of


def current_player(request: HttpRequest) -> dict[str, Any]:
    """The player (or None) and, for registered players, their coin balance and the friend
    requests waiting for them, for the navigation."""
    player = getattr(request, "player", None)
    # A SimpleLazyObject around None is truthy: unwrap so templates can test {% if player %}.
    player = player if player else None
    wallet = wallet_of(player) if player is not None else None
    registered = player is not None and not player.is_guest
    return {
        "player": player,
        "coin_balance": wallet.balance if wallet else None,
        "friend_requests": incoming_requests(player).count() if registered else 0,
    }
