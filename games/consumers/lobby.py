"""The lobby socket: open tables appear, fill, start and vanish live; invitations arrive here.

Every page a player keeps open (lobby, waiting room) holds one, so it is also the player's
presence (online friends) and the channel for "your match has started".
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone
from django.utils.translation import gettext

from accounts.access import player_from
from accounts.services import player_seen
from config.websocket import LenientJsonConsumer, PageLanguageMixin

from .. import realtime
from ..catalog import GAME_TITLES, describe_options
from ..selectors import friends_online, visible_open_tables
from ..services.lobby import lobby_entry


def localized(entry: dict[str, Any]) -> dict[str, Any]:
    """A lobby entry in the receiver's language (a published entry is shared by everyone)."""
    return {
        **entry,
        "game_title": str(GAME_TITLES[entry["game"]]),
        "options": describe_options(entry["game"], entry["options_raw"]),
    }


def _snapshot(player: Any) -> dict[str, Any]:
    return {
        "type": "lobby",
        "tables": [lobby_entry(table) for table in visible_open_tables(player)],
        "friends_online": friends_online(player),
    }


def _seen(player: Any) -> list[dict[str, Any]]:
    player_seen(player_id=player.pk, now=timezone.now())
    return friends_online(player)


class LobbyConsumer(PageLanguageMixin, LenientJsonConsumer):
    async def connect(self) -> None:
        self.player = await database_sync_to_async(player_from)(
            self.scope.get("user"), self.scope.get("session")
        )
        self.groups_joined = [realtime.LOBBY_GROUP]
        if self.player is not None:
            self.groups_joined.append(realtime.player_group(self.player.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        if self.player is not None:
            await database_sync_to_async(_seen)(self.player)
        await self.send_json(await database_sync_to_async(_snapshot)(self.player))

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            friends = await database_sync_to_async(_seen)(self.player) if self.player else []
            await self.send_json({"type": "pong", "friends_online": friends})
        elif kind == "sync":
            snapshot = await database_sync_to_async(_snapshot)(self.player)
            await self.send_json(snapshot)
        else:
            text = gettext("The lobby understands %(ping)s and %(sync)s.") % {
                "ping": '{"type": "ping"}',
                "sync": '{"type": "sync"}',
            }
            await self.send_json({"type": "error", "code": "bad_message", "message": text})

    # --- Events from services (games.realtime) ---

    async def lobby_table(self, event: dict[str, Any]) -> None:
        audience = event.get("audience")
        if event["table"] is not None and (
            audience is None or (self.player is not None and self.player.pk in audience)
        ):
            await self.send_json({"type": "table", "table": localized(event["table"])})
        else:
            await self.send_json(
                {"type": "table_removed", "id": event["id"], "status": event["status"]}
            )

    async def player_invited(self, event: dict[str, Any]) -> None:
        game_title = str(GAME_TITLES[event["game"]])
        await self.send_json({**event, "type": "invitation", "game_title": game_title})

    async def player_match_started(self, event: dict[str, Any]) -> None:
        await self.send_json({**event, "type": "match_started"})
