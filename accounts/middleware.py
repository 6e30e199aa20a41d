from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

from .access import player_from
from .models import Player


def request_player(request: HttpRequest) -> Player | None:
    """The request's player or None: the middleware's lazy object, unwrapped for callers."""
    player = getattr(request, "player", None)
    return player if player else None


class PlayerMiddleware:
    """Sets ``request.player`` (a Player or None), looked up only when a view asks for it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # HttpRequest declares no ``player``: this middleware is what adds it.
        request.player = SimpleLazyObject(  # type: ignore[attr-defined]
            lambda: player_from(request.user, request.session)
        )
        return self.get_response(request)
