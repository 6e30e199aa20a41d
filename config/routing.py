"""Websocket routes; each consumer lives in the app that owns it.

No socket reads anything before it has accepted the handshake: each gets the session only
(resolved lazily) and finds its player itself, in the database pool. Any other path is refused
at the handshake (HTTP 403, docs/protocol.md § Close codes) rather than failing with an error.
The load bench's echo sockets are routed only under its own settings (``BENCH_ECHO``)."""

from django.conf import settings
from django.urls import path, re_path

from accounts.consumers import PingConsumer
from core.websocket import NotFoundConsumer, SocketSessionMiddleware
from games.consumers.lobby import LobbyConsumer
from games.consumers.table import TableConsumer
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/ping/", SocketSessionMiddleware(PingConsumer.as_asgi())),
    path("ws/lobby/", SocketSessionMiddleware(LobbyConsumer.as_asgi())),
    path("ws/table/<int:table_id>/", SocketSessionMiddleware(TableConsumer.as_asgi())),
    path(
        "ws/tournament/<int:tournament_id>/",
        SocketSessionMiddleware(TournamentConsumer.as_asgi()),
    ),
    # Django's stubs take a route's target for an HTTP view; here it is an ASGI application.
    re_path(r"", NotFoundConsumer.as_asgi()),  # type: ignore[arg-type]
]
if settings.BENCH_ECHO:
    from bench.echo import echo_routes

    websocket_urlpatterns[:0] = echo_routes()
