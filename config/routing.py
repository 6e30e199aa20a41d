"""Websocket routes; each consumer lives in the app that owns it.

The table socket reads nothing before it has accepted the handshake: it gets the session only
(resolved lazily) and finds its player itself, in its database pool. Any other path is refused
at the handshake (HTTP 403, docs/protocol.md § Close codes) rather than failing with an error."""

from channels.auth import AuthMiddlewareStack
from channels.sessions import SessionMiddlewareStack
from django.urls import path, re_path

from accounts.consumers import PingConsumer
from config.websocket import NotFoundConsumer
from games.consumers.lobby import LobbyConsumer
from games.consumers.table import TableConsumer

websocket_urlpatterns = [
    path("ws/ping/", AuthMiddlewareStack(PingConsumer.as_asgi())),
    path("ws/lobby/", AuthMiddlewareStack(LobbyConsumer.as_asgi())),
    path("ws/table/<int:table_id>/", SessionMiddlewareStack(TableConsumer.as_asgi())),
    re_path(r"", NotFoundConsumer.as_asgi()),
]
