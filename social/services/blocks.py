"""Blocking: the blocker stops hearing from the blocked player by any path.

A block ends the pair's friendship and their open friend requests, and withdraws the blocked
player's invitations to the blocker. What it keeps out afterwards is checked where each path is:
the friend request and the invitation (:func:`require_not_blocked`, ``ACCOUNTS_REQUEST_CHECKS``),
the join and the lobby's and the table's visibility rule in ``games.access`` (who blocked whom,
``social.selectors.players_blocking`` and ``players_blocked_by``), the chat's delivery.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from accounts.models import FriendRequest, Friendship, Player
from core.errors import ServiceError
from games.models import Invitation

from ..models import Block


def is_blocked(*, blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id`` (the blocked may not reach them)."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def block_player(*, blocker: Player, blocked_id: int) -> Block:
    """Block a player; blocking twice is one block."""
    if blocker.is_guest:
        raise ServiceError(gettext("Sign up to block players."), code="guest")
    if blocked_id == blocker.pk:
        raise ServiceError(gettext("You cannot block yourself."), code="self")
    blocked = Player.objects.filter(pk=blocked_id).first()
    if blocked is None:
        raise ServiceError(gettext("There is no such player."), code="unknown_player")
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        pair = Q(player=blocker, friend=blocked) | Q(player=blocked, friend=blocker)
        Friendship.objects.filter(pair).delete()
        FriendRequest.objects.filter(
            Q(from_player=blocker, to_player=blocked) | Q(from_player=blocked, to_player=blocker),
            status=FriendRequest.Status.PENDING,
        ).update(status=FriendRequest.Status.CANCELLED)
        Invitation.objects.filter(player=blocker, invited_by=blocked).delete()
    return block


def unblock_player(*, blocker: Player, blocked_id: int) -> None:
    removed, _ = Block.objects.filter(blocker=blocker, blocked_id=blocked_id).delete()
    if not removed:
        raise ServiceError(gettext("You have not blocked that player."), code="not_blocked")


def require_not_blocked(*, sender: Player, target: Player) -> None:
    """For a request to ``target`` (friendship, invitation): refused if ``target`` blocked the
    sender, or the sender blocked ``target`` (unblock first)."""
    if is_blocked(blocker_id=sender.pk, blocked_id=target.pk):
        raise ServiceError(
            gettext("You blocked %(name)s; unblock them first.") % {"name": target.display_name},
            code="blocking",
        )
    if is_blocked(blocker_id=target.pk, blocked_id=sender.pk):
        raise ServiceError(
            gettext("%(name)s is not taking requests from you.") % {"name": target.display_name},
            code="blocked",
        )
