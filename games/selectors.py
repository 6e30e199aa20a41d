"""Reads for the lobby and tables; the one place that decides who may see a table."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Friendship, Player

from .models import Seat, Table


def visible_open_tables(
    player: Player | None, *, game: str | None = None, stake: int | None = None
) -> QuerySet[Table]:
    """Open tables this player may see: friends-only ones only for the creator's friends."""
    tables = Table.objects.filter(status=Table.Status.OPEN)
    if player is None:
        tables = tables.exclude(visibility=Table.Visibility.FRIENDS)
    else:
        friend_of = Friendship.objects.filter(friend=player).values("player_id")
        tables = tables.filter(
            ~Q(visibility=Table.Visibility.FRIENDS)
            | Q(creator=player)
            | Q(creator_id__in=friend_of)
            | Q(invitations__player=player)
        ).distinct()
    if game:
        tables = tables.filter(game=game)
    if stake is not None:
        tables = tables.filter(stake=stake)
    return (
        tables.select_related("creator").prefetch_related("seats__player").order_by("-created_at")
    )


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
