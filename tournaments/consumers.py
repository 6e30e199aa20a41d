"""The tournament socket (``/ws/tournament/<id>/``): its standings as they change, and the
reader's own tables as they are paired (docs/protocol.md § Tournament socket). Anyone who may
see the tournament's page may listen; it takes no message but ``ping``.

With ``?follow=1`` it carries only the reader's tables (``match_started``), no standings: every
page of a player in a running event listens that way (``following``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.utils.translation import gettext

from accounts.models import Player
from accounts.sockets import CLOSE_SESSION_ENDED, PlayerSocketMixin
from core.pool import run_db
from core.websocket import EventHandler, GuardedJsonConsumer
from games.consumers.news import tell_match_started
from games.realtime import player_group

from .access import may_see
from .following import playing_frame
from .models import Tournament
from .realtime import standings_frame, tournament_group

CLOSE_NO_TOURNAMENT = 4004


@dataclass(frozen=True)
class Opening:
    """What a socket says first: the standings (or, following, that it listens), then the
    reader's table being played, if any: a page opened just after its pairing misses nothing."""

    first: dict[str, Any]
    playing: dict[str, Any] | None


def _opening(tournament_id: int, player: Player | None, follow: bool) -> Opening | None:
    """None for a tournament that does not exist or that the player may not see (the same
    answer, so a socket cannot probe for private events)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not may_see(tournament, player):
        return None
    first = {"type": "following", "tournament": tournament.pk} if follow else None
    return Opening(
        first=first or standings_frame(tournament),
        playing=None if player is None else playing_frame(tournament.pk, player.pk),
    )


class TournamentConsumer(PlayerSocketMixin, GuardedJsonConsumer):
    follow = False
    # No standings frame goes out before this (the loop's time): this socket's own frames stay
    # TOURNAMENT_STANDINGS_SECONDS apart, whatever the channel layer's delivery did to the
    # publishers' spacing; the newest frame that came meanwhile goes when the pause ends.
    standings_due = 0.0
    standings_waiting: dict[str, Any] | None = None
    standings_later: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.follow = query.get("follow") == ["1"]
        await self.accept()  # nothing is read before the handshake is accepted
        # The groups first, the snapshot after: no change in between is missed.
        await self.identify(also=self._groups)
        opening = await run_db(_opening, self.tournament_id, self.player, self.follow)
        if opening is None:
            await self.close_with(CLOSE_NO_TOURNAMENT)
            return
        await self.send_json(opening.first)
        self._standings_sent()
        if opening.playing is not None:
            await tell_match_started(self, self.player_id, opening.playing)

    def _groups(self) -> list[str]:
        groups = [] if self.follow else [tournament_group(self.tournament_id)]
        if self.player_id is not None:  # "your next match is ready", wherever it was paired
            groups.append(player_group(self.player_id))
        return groups

    async def disconnect(self, code: int) -> None:
        if self.standings_later is not None:
            self.standings_later.cancel()
        await self.leave_all()

    async def end_session(self) -> None:
        await self.close_with(CLOSE_SESSION_ENDED)

    async def receive_message(self, content: dict[str, Any]) -> None:
        if content.get("type") != "ping":
            await self.bad_message(gettext("This socket only listens; send nothing but ping."))
            return
        await self.send_json({"type": "pong"})

    async def tournament_standings(self, event: dict[str, Any]) -> None:
        waiting = self.standings_later is not None and not self.standings_later.done()
        if not waiting and self.standings_due <= asyncio.get_running_loop().time():
            await self.send_json(event["frame"], replaceable=True)
            self._standings_sent()
            return
        self.standings_waiting = event["frame"]  # a newer frame replaces one that waited
        if not waiting:
            self.standings_later = asyncio.get_running_loop().create_task(self._standings_after())

    async def _standings_after(self) -> None:
        loop = asyncio.get_running_loop()
        while (wait := self.standings_due - loop.time()) > 0:
            await asyncio.sleep(wait)
        frame, self.standings_waiting = self.standings_waiting, None
        if frame is not None and not self.closing:
            await self.send_json(frame, replaceable=True)
            self._standings_sent()

    def _standings_sent(self) -> None:
        loop = asyncio.get_running_loop()
        self.standings_due = loop.time() + settings.TOURNAMENT_STANDINGS_SECONDS

    async def player_match_started(self, event: dict[str, Any]) -> None:
        await tell_match_started(self, self.player_id, event)

    def event_handler(self, message: dict[str, Any]) -> EventHandler | None:
        """The player's other news (invitations, quick play) is the lobby's to show."""
        own = super().event_handler(message)
        if own is None and str(message.get("type", "")).startswith("player."):
            return self._not_here
        return own

    async def _not_here(self, event: dict[str, Any]) -> None:
        return None
