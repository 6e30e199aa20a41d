"""Reads about players and friends (STYLE.md § 4: reads live apart from writes)."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import FriendRequest, Player


def friends_of(player: Player) -> QuerySet[Player]:
    return Player.objects.filter(friendships__friend=player).order_by("name")


def incoming_requests(player: Player) -> QuerySet[FriendRequest]:
    return FriendRequest.objects.filter(
        to_player=player, status=FriendRequest.Status.PENDING
    ).select_related("from_player")


def outgoing_requests(player: Player) -> QuerySet[FriendRequest]:
    return FriendRequest.objects.filter(
        from_player=player, status=FriendRequest.Status.PENDING
    ).select_related("to_player")
