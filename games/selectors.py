"""Reads for the lobby and tables; the one place that decides who may see a table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Friendship, Player

from .models import Invitation, Seat, Table


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
    """Open tables this player may see (a friends-only one: see ``table_audience``), newest
    first."""
    tables = Table.objects.filter(visible_tables(player), status=Table.Status.OPEN)
    if game:
        tables = tables.filter(game=game)
    if stake is not None:
        tables = tables.filter(stake=stake)
    return tables.select_related("creator").prefetch_related("seats__player").order_by("-pk")


def visible_tables(player: Player | None) -> Q:
    """The tables this player may see, as a filter on ``Table``: :func:`may_see_table` for a
    whole list at once (the lobby, the match lists)."""
    if player is None:
        return ~Q(visibility=Table.Visibility.FRIENDS)
    # Subqueries rather than joins: a join on invitations or seats would repeat tables.
    friend_of = Friendship.objects.filter(friend=player).values("player_id")
    return (
        ~Q(visibility=Table.Visibility.FRIENDS)
        | Q(creator=player)
        | Q(creator_id__in=friend_of)
        | Q(pk__in=Invitation.objects.filter(player=player).values("table_id"))
        | Q(pk__in=Seat.objects.filter(player=player).values("table_id"))
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


def table_audience(table: Table) -> set[int] | None:
    """Who may see a friends-only table: its creator, the creator's friends, the invited and
    the seated (None: a public or password table, which everyone may see)."""
    if table.visibility != Table.Visibility.FRIENDS:
        return None
    friends = Friendship.objects.filter(player_id=table.creator_id).values_list(
        "friend_id", flat=True
    )
    invited = Invitation.objects.filter(table=table).values_list("player_id", flat=True)
    seated = Seat.objects.filter(table=table).values_list("player_id", flat=True)
    return {table.creator_id, *friends, *invited, *seated}


def may_see_table(player: Player | None, table: Table) -> bool:
    """Anyone may see a public or password table; a friends-only one needs a friend or seat."""
    if table.visibility != Table.Visibility.FRIENDS:
        return True
    if player is None:
        return False
    return (
        table.creator_id == player.pk
        or table.seats.filter(player=player).exists()
        or table.invitations.filter(player=player).exists()
        or Friendship.objects.filter(player=table.creator, friend=player).exists()
    )


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
