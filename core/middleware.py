"""Request middleware the whole site shares."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template import loader

from .outage import database_unavailable, is_connection_failure


class DatabaseUnavailableMiddleware:
    """A page that meets an unavailable database answers 503 with the site's own page: the
    player is told to try again in a moment, and the log gets the outage's one line
    (``core.outage``), not a traceback and a 500 for every request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_connection_failure(exception):
            return None
        database_unavailable(exception)
        # Drawn without the request's context: its processors read the database.
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
        # Django logs every 5xx response once more unless it is marked as logged already.
        response._has_been_logged = True  # type: ignore[attr-defined]
        return response
