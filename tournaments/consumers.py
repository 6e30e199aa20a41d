"""The tournament socket (``/ws/tournament/<id>/``): its standings as they change
(docs/protocol.md § Tournament socket). Anyone who may see the tournament's page may listen;
it takes no message but ``ping``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from accounts.models import Player
from accounts.sockets import CLOSE_SESSION_ENDED, PlayerSocketMixin
from core.pool import run_db
from core.websocket import EventHandler, GuardedJsonConsumer
from games.realtime import player_group

from .access import may_see
from .models import Tournament
from .realtime import standings_frame, tournament_group

CLOSE_NO_TOURNAMENT = 4004


def _first_frame(tournament_id: int, player: Player | None) -> dict[str, Any] | None:
    """The standings now, or None for a tournament that does not exist or that the player may
    not see (the same answer, so a socket cannot probe for private events)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not may_see(tournament, player):
        return None
    return standings_frame(tournament)


class TournamentConsumer(PlayerSocketMixin, GuardedJsonConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        await self.accept()  # nothing is read before the handshake is accepted
        # The groups first, the snapshot after: no change in between is missed.
        await self.identify(also=self._groups)
        frame = await run_db(_first_frame, self.tournament_id, self.player)
        if frame is None:
            await self.close_with(CLOSE_NO_TOURNAMENT)
            return
        await self.send_json(frame)

    def _groups(self) -> list[str]:
        groups = [tournament_group(self.tournament_id)]
        if self.player_id is not None:  # "your next match is ready", wherever it was paired
            groups.append(player_group(self.player_id))
        return groups

    async def disconnect(self, code: int) -> None:
        await self.leave_all()

    async def end_session(self) -> None:
        await self.close_with(CLOSE_SESSION_ENDED)

    async def receive_message(self, content: dict[str, Any]) -> None:
        if content.get("type") != "ping":
            await self.bad_message(gettext("This socket only listens; send nothing but ping."))
            return
        await self.send_json({"type": "pong"})

    async def tournament_standings(self, event: dict[str, Any]) -> None:
        await self.send_json(event["frame"], replaceable=True)

    async def player_match_started(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "match_started", "table": event["table"], "url": event["url"]}
        )

    def event_handler(self, message: dict[str, Any]) -> EventHandler | None:
        """The player's other news (invitations, quick play) is the lobby's to show."""
        own = super().event_handler(message)
        if own is None and str(message.get("type", "")).startswith("player."):
            return self._not_here
        return own

    async def _not_here(self, event: dict[str, Any]) -> None:
        return None
