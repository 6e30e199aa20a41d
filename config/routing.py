"""Websocket routes; each consumer lives in the app that owns it. Any other path is closed with
4004 (docs/protocol.md § Close codes) rather than failing the handshake."""

from django.urls import path, re_path

from accounts.consumers import PingConsumer
from config.websocket import NotFoundConsumer
from games.consumers.lobby import LobbyConsumer
from games.consumers.table import TableConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    re_path(r"", NotFoundConsumer.as_asgi()),
]
