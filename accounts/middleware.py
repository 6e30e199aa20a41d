from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

from .access import player_from


class PlayerMiddleware:
    """Sets ``request.player`` (a Player or None), looked up only when a view asks for it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.player = SimpleLazyObject(lambda: player_from(request.user, request.session))
        return self.get_response(request)
