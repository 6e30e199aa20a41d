"""Reads for the lobby and tables (who may see a table is decided in ``games.access``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import Player

from . import access, hooks
from .catalog import Pool
from .models import PoolEntry, PoolTicket, Seat, Table
from .rules import game_specs


@dataclass(frozen=True)
class LobbyPage:
    """One page of the lobby: the newest tables first, how many match in all, whether older
    ones follow (ask for them with ``before`` = the last table's id)."""

    tables: list[Table]
    count: int
    more: bool


def visible_open_tables(
    player: Player | None,
    *,
    game: str | None = None,
    stake: int | None = None,
    speed: str | None = None,
    seats: int | None = None,
) -> QuerySet[Table]:
    """Open tables this player may see (the rule: ``games.access``), newest first."""
    tables = Table.objects.filter(access.visible_to(player), status=Table.Status.OPEN).exclude(
        visibility=Table.Visibility.POOL  # waiting for the players quick play seated there
    )
    if game:
        tables = tables.filter(game=game)
    if stake is not None:
        tables = tables.filter(stake=stake)
    if speed:
        tables = tables.filter(speed=speed)
    if seats is not None:
        tables = tables.filter(seats_total=seats)
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
    speed: str | None = None,
    seats: int | None = None,
) -> LobbyPage:
    """The newest ``LOBBY_PAGE_SIZE`` visible open tables (older than ``before`` when given),
    so a lobby with any number of tables stays one small page and one count."""
    tables = visible_open_tables(player, game=game, stake=stake, speed=speed, seats=seats)
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


# --- Quick play -------------------------------------------------------------------------


def pool_counts() -> dict[str, dict[str, int]]:
    """For each pool with anyone in it: how many wait, and how many play in its matches."""
    counts: dict[str, dict[str, int]] = {}
    waiting = Counter(
        Pool(*row).id
        for row in PoolEntry.objects.filter(ticket__table__isnull=True).values_list(
            "game", "speed", "stake", "rated", "seats"
        )
    )
    playing = Counter(
        Pool(*row).id
        for row in Seat.objects.filter(
            active=True, is_bot=False, table__visibility=Table.Visibility.POOL
        ).values_list(
            "table__game", "table__speed", "table__stake", "table__rated", "table__seats_total"
        )
    )
    for pool_id in set(waiting) | set(playing):
        counts[pool_id] = {"waiting": waiting[pool_id], "playing": playing[pool_id]}
    return counts


def pool_ticket_public(player: Player | None) -> dict[str, Any] | None:
    """What the player waits for: the pools, since when, the fill choice, a paired table."""
    if player is None:
        return None
    ticket = PoolTicket.objects.filter(player=player).first()
    if ticket is None:
        return None
    return {
        "pools": [
            Pool(entry.game, entry.speed, entry.stake, entry.rated, entry.seats).id
            for entry in ticket.entries.all()
        ],
        "joined_at": ticket.joined_at.isoformat(),
        "fill_after_seconds": ticket.fill_after_seconds,
        "bot_strength": ticket.bot_strength,
        "table": ticket.table_id,
        "url": None if ticket.table_id is None else f"/tables/{ticket.table_id}/",
    }


def player_ratings(player: Player | None) -> dict[str, int]:
    """A registered player's rating in each game, as the lobby shows it beside the pools (the
    pairing compares the same numbers); nothing for a visitor or a guest."""
    if player is None or player.is_guest:
        return {}
    return {
        spec.id: round(hooks.player_ratings(spec.id, {player.pk})[player.pk])
        for spec in game_specs()
    }
