"""The lobby socket: open tables appear, fill, start and vanish live; invitations and friend
requests arrive here.

Every page a player keeps open (lobby, waiting room) holds one, so it is also the player's
presence (online friends) and the channel for "your match has started". The snapshot is one
page of the newest tables of the socket's filter (``/ws/lobby/?game=…&stake=…&speed=…``) with
their count; older pages come on request (docs/protocol.md § The lobby socket). Which tables a
player may see is decided where they are published; this socket relays what reaches it.
"""

from __future__ import annotations

from typing import Any

from django.db import OperationalError
from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import gettext

from accounts.realtime import friend_news_group
from accounts.services import player_seen
from accounts.sockets import CLOSE_SESSION_ENDED, PlayerSocketMixin
from core.errors import ServiceError
from core.pool import run_db
from core.websocket import GuardedJsonConsumer

from .. import hooks, realtime
from ..catalog import GAME_TITLES, describe_options
from ..entropy_socket import reveal_frame
from ..forms import LobbyFilters, lobby_filters
from ..models import Table
from ..selectors import friends_online, lobby_page, player_ratings, pool_counts, pool_ticket_public
from ..services import pools, reveals
from ..services.lobby import lobby_entry, speed_words
from .news import tell_match_started


def localized(entry: dict[str, Any]) -> dict[str, Any]:
    """A lobby entry in the receiver's language (a published entry is shared by everyone)."""
    return {
        **entry,
        "game_title": str(GAME_TITLES[entry["game"]]),
        "options": describe_options(entry["game"], entry["options_raw"]),
        # An entry published before speeds (a deploy in progress) is Normal.
        **speed_words(entry.get("speed", Table.Speed.NORMAL)),
    }


def _page(player: Any, filters: LobbyFilters, before: int | None) -> dict[str, Any]:
    page = lobby_page(
        player,
        game=filters.game,
        stake=filters.stake,
        speed=filters.speed,
        seats=filters.seats,
        before=before,
    )
    flagged = hooks.low_completion(
        seat.player_id for table in page.tables for seat in table.seats.all()
    )
    return {
        "tables": [lobby_entry(table, flagged) for table in page.tables],
        "count": page.count,
        "more": page.more,
    }


def _seen(player: Any) -> list[dict[str, Any]]:
    player_seen(player_id=player.pk, now=timezone.now())
    return friends_online(player)


class LobbyConsumer(PlayerSocketMixin, GuardedJsonConsumer):
    async def connect(self) -> None:
        query = QueryDict(self.scope.get("query_string", b"").decode("latin-1"))
        self.filters = lobby_filters(query)
        await self.accept()  # nothing is read before the handshake is accepted
        # The groups first, the snapshot after: nothing published in between is missed.
        await self.identify(also=self._lobby_groups)
        if self.player is not None:
            await run_db(_seen, self.player)
        await self._snapshot()

    def _lobby_groups(self) -> list[str]:
        groups = [realtime.LOBBY_GROUP]
        if self.player is not None:
            groups.append(realtime.player_group(self.player.pk))
            if not self.player.is_guest:
                groups.append(friend_news_group(self.player.pk))
        return groups

    async def disconnect(self, code: int) -> None:
        await self.leave_all()

    async def end_session(self) -> None:
        await self.close_with(CLOSE_SESSION_ENDED)

    async def _snapshot(self, *, replaceable: bool = False) -> None:
        def build() -> dict[str, Any]:
            page = _page(self.player, self.filters, self.filters.before)
            return {
                "type": "lobby",
                **page,
                "friends_online": friends_online(self.player),
                "pool_ticket": pool_ticket_public(self.player),
                "pool_counts": pool_counts(),
                "ratings": player_ratings(self.player),
            }

        await self.send_json(await run_db(build), replaceable=replaceable)

    async def layer_restored(self, event: dict[str, Any]) -> None:
        await self._snapshot()

    async def receive_message(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if kind == "ping":
            friends = await run_db(_seen, self.player) if self.player else []
            await self.send_json({"type": "pong", "friends_online": friends})
        elif kind == "sync":
            await self.answer_sync(lambda: self._snapshot(replaceable=True))
        elif kind == "more":
            before = content.get("before")
            if type(before) is not int or not 0 < before < 2**63:
                await self.bad_message(gettext("'before' must be a table id."))
                return
            page = await run_db(_page, self.player, self.filters, before)
            await self.send_json({"type": "tables", "before": before, **page})
        elif kind in ("pool_join", "pool_leave"):
            await self._pool(kind, content)
        elif kind == "entropy_reveal":
            await self._reveal(content)
        else:
            text = gettext("The lobby understands %(ping)s, %(sync)s and %(more)s.") % {
                "ping": '{"type": "ping"}',
                "sync": '{"type": "sync"}',
                "more": '{"type": "more", "before": 12}',
            }
            await self.bad_message(text)

    async def _reveal(self, content: dict[str, Any]) -> None:
        """The waiting room reveals its value for the deal (docs/protocol.md § Player entropy)."""
        table = content.get("table")
        if type(table) is not int or not 0 < table < 2**63:
            await self.bad_message(gettext("'table' must be a table id."))
            return
        try:
            await run_db(
                reveals.entropy_reveal,
                table_id=table,
                player=self.player,
                value=content.get("value"),
            )
        except ServiceError as error:
            await self.send_error(error.code, str(error))
            return
        except OperationalError:
            await self.send_error("busy", gettext("The server is busy; try again."))
            return
        await self.send_json({"type": "entropy_revealed", "table": table})

    async def _pool(self, kind: str, content: dict[str, Any]) -> None:
        """Quick play (docs/protocol.md § Quick play): the services check everything sent."""
        if self.player is None:
            text = gettext("Play as a guest or log in to play now.")
            await self.send_error("no_player", text)
            return
        try:
            if kind == "pool_join":
                ticket = await run_db(
                    pools.pool_enter,
                    player=self.player,
                    pool_ids=content.get("pools"),
                    fill_after_seconds=content.get("fill_after"),
                    bot_strength=content.get("strength", "easy"),
                )
            else:
                await run_db(pools.pool_leave, player=self.player)
                ticket = None
        except ServiceError as error:
            await self.send_error(error.code, str(error))
            return
        except OperationalError:  # a lock not had in time: nothing changed, say so
            await self.send_error("busy", gettext("The server is busy; try again."))
            return
        await self.send_json({"type": "pool_ticket", "ticket": ticket})

    # --- Events from services (games.realtime), already meant for this socket's player ---

    async def lobby_table(self, event: dict[str, Any]) -> None:
        if event["table"] is not None and self.player_id not in event.get("hidden_from", ()):
            await self.send_json({"type": "table", "table": localized(event["table"])})
        else:
            await self.send_json(
                {
                    "type": "table_removed",
                    "id": event["id"],
                    "status": event["status"],
                    "game": event["game"],
                    "stake": event["stake"],
                    "speed": event.get("speed", Table.Speed.NORMAL),
                    "seats": event.get("seats"),
                }
            )

    async def player_invited(self, event: dict[str, Any]) -> None:
        game_title = str(GAME_TITLES[event["game"]])
        await self.send_json({**event, "type": "invitation", "game_title": game_title})

    async def player_reveal(self, event: dict[str, Any]) -> None:
        await self.send_json(reveal_frame(event))

    async def player_match_started(self, event: dict[str, Any]) -> None:
        await tell_match_started(self, self.player_id, event)

    async def player_pool_ticket(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pool_ticket_changed", "ticket": event["ticket"]})

    async def player_paired(self, event: dict[str, Any]) -> None:
        await self.send_json({**event, "type": "paired"})

    async def player_pool_called_off(self, event: dict[str, Any]) -> None:
        await self.send_json({**event, "type": "pool_called_off"})

    async def lobby_pools(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pools", "counts": event["counts"]})

    async def friend_requests(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "friend_requests", "pending": event["pending"], "sender": event["sender"]}
        )
