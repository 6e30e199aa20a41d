"""Following a running event from anywhere on the site: a player in one is taken to each of their
tables as it is paired, whatever page they are on (docs/tournaments.md § Taken to your match).

Every page of such a player listens on the tournament socket in its ``follow`` mode (the base
template's ``static/js/follow.js``); the socket tells a page that opens while the player's table
is already being played at once, so a page loaded just after the pairing misses nothing."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from accounts.middleware import request_player
from accounts.models import Player
from games.models import Seat, Table

from .models import Entrant, Tournament


def playing_frame(tournament_id: int, player_id: int) -> dict[str, Any] | None:
    """``match_started`` for the player's table of this event whose match is being played, if
    any (a player holds one active seat at a time)."""
    table_id = (
        Seat.objects.filter(
            player_id=player_id,
            active=True,
            table__status=Table.Status.PLAYING,
            table__tournament_link__tournament_id=tournament_id,
        )
        .values_list("table_id", flat=True)
        .first()
    )
    if table_id is None:
        return None
    return {"type": "match_started", "table": table_id, "url": reverse("table", args=[table_id])}


def followed_tournament(player: Player | None) -> int | None:
    """The running event the player is in and has not left, the latest to start, if any."""
    if player is None:
        return None
    return (
        Entrant.objects.filter(
            player=player, withdrawn=False, tournament__status=Tournament.Status.RUNNING
        )
        .order_by("-tournament__started_at", "-tournament_id")
        .values_list("tournament_id", flat=True)
        .first()
    )


def following(request: HttpRequest) -> dict[str, Any]:
    """The context processor: which event the page follows (``follow_tournament``), for a player
    in a running one; nothing otherwise."""
    return {"follow_tournament": followed_tournament(request_player(request))}
