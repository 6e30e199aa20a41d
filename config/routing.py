"""Websocket routes; each consumer lives in the app that owns it."""

from django.urls import path

from accounts.consumers import PingConsumer
from games.consumers.lobby import LobbyConsumer
from games.consumers.table import TableConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
