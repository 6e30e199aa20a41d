"""Reads for the lobby and tables (who may see a table is decided in ``games.access``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import Player

from . import access
from .models import Seat, Table


@dataclass(frozen=True)
class LobbyPage:
    """One page of the lobby: the newest tables first, how many match in all, whether older
    ones follow (ask for them with ``before`` = the last table's id)."""

    tables: list[Table]
    count: int
    more: bool


def visible_open_tables(
    player: Player | None, *, game: str | None = None, stake: int | None = None
) -> QuerySet[Table]:
    """Open tables this player may see (the rule: ``games.access``), newest first."""
    tables = Table.objects.filter(access.visible_to(player), status=Table.Status.OPEN)
    if game:
        tables = tables.filter(game=game)
    if stake is not None:
        tables = tables.filter(stake=stake)
    return tables.select_related("creator").prefetch_related("seats__player").order_by("-pk")


def matches_being_played(player: Player | None, *, limit: int) -> list[Table]:
    """The newest tables whose match is being played, that this player may watch (the same
    rule as the lobby's: a spectator may open any table it may list)."""
    tables = Table.objects.filter(access.visible_to(player), status=Table.Status.PLAYING)
    return list(
        tables.select_related("creator").prefetch_related("seats__player").order_by("-pk")[:limit]
    )


def lobby_page(
    player: Player | None,
    *,
    game: str | None = None,
    stake: int | None = None,
    before: int | None = None,
) -> LobbyPage:
    """The newest ``LOBBY_PAGE_SIZE`` visible open tables (older than ``before`` when given),
    so a lobby with any number of tables stays one small page and one count."""
    tables = visible_open_tables(player, game=game, stake=stake)
    count = tables.count()
    if before is not None:
        tables = tables.filter(pk__lt=before)
    size = settings.LOBBY_PAGE_SIZE
    rows = list(tables[: size + 1])
    return LobbyPage(tables=rows[:size], count=count, more=len(rows) > size)


def active_seat(player: Player | None) -> Seat | None:
    if player is None:
        return None
    return Seat.objects.filter(player=player, active=True).select_related("table").first()


def online_cutoff() -> Any:
    return timezone.now() - timedelta(seconds=settings.ONLINE_SECONDS)


def friends_online(player: Player | None) -> list[dict[str, Any]]:
    if player is None or player.is_guest:
        return []
    friends = Player.objects.filter(
        friendships__friend=player, last_seen_at__gte=online_cutoff()
    ).order_by("name")
    return [{"id": friend.pk, "name": friend.name} for friend in friends]
