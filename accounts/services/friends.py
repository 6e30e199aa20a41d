"""Friend requests and friendships: every write is one of these functions."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.errors import ServiceError

from .. import hooks
from ..models import FriendRequest, Friendship, Player
from ..names import echoed_name
from ..realtime import publish_friend_requests


def _lock_pair(first: Player, second: Player) -> None:
    """Lock both players in id order: requests between one pair are decided one at a time."""
    ids = sorted([first.pk, second.pk])
    list(Player.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def _require_registered(player: Player) -> None:
    if player.is_guest:
        raise ServiceError(
            gettext("Guests cannot have friends. Sign up to add friends."), code="guest"
        )


def are_friends(first: Player, second: Player) -> bool:
    return Friendship.objects.filter(player=first, friend=second).exists()


def friend_request_send(*, sender: Player, username: str) -> FriendRequest:
    """Ask ``username`` to be friends; if they already asked the sender, accept theirs instead.
    The receiver's open pages hear of a new request once it commits (a toast and a count)."""
    _require_registered(sender)
    username = (username or "").strip()
    if not username:
        raise ServiceError(
            gettext("Enter the username of the player you want to add."), code="empty"
        )
    target = Player.objects.filter(user__username__iexact=username).first()
    if target is None:
        raise ServiceError(
            gettext("There is no player called “%(name)s”.") % {"name": echoed_name(username)},
            code="unknown_player",
        )
    if target.pk == sender.pk:
        raise ServiceError(gettext("You cannot send a friend request to yourself."), code="self")
    hooks.request_checks(sender=sender, target=target)  # social: blocks
    with transaction.atomic():
        _lock_pair(sender, target)
        if are_friends(sender, target):
            raise ServiceError(
                gettext("%(name)s is already your friend.") % {"name": target.name},
                code="already_friends",
            )
        if FriendRequest.objects.filter(
            from_player=sender, to_player=target, status=FriendRequest.Status.PENDING
        ).exists():
            raise ServiceError(
                gettext("You have already sent %(name)s a friend request.") % {"name": target.name},
                code="duplicate",
            )
        reverse = FriendRequest.objects.filter(
            from_player=target, to_player=sender, status=FriendRequest.Status.PENDING
        ).first()
        if reverse is not None:
            _accept(reverse)
            return reverse
        friend_request = FriendRequest.objects.create(from_player=sender, to_player=target)
        publish_friend_requests(
            player_id=target.pk, pending=_pending_for(target), sender=sender.name
        )
        return friend_request


def _pending_for(player: Player) -> int:
    return FriendRequest.objects.filter(
        to_player=player, status=FriendRequest.Status.PENDING
    ).count()


def _pending_request(*, request_id: int, **who: Player) -> FriendRequest:
    friend_request = (
        FriendRequest.objects.select_for_update()
        .select_related("from_player", "to_player")
        .filter(pk=request_id, status=FriendRequest.Status.PENDING, **who)
        .first()
    )
    if friend_request is None:
        raise ServiceError(gettext("That friend request is no longer open."), code="not_found")
    return friend_request


def _accept(friend_request: FriendRequest) -> None:
    friend_request.status = FriendRequest.Status.ACCEPTED
    friend_request.responded_at = timezone.now()
    friend_request.save(update_fields=["status", "responded_at"])
    first, second = friend_request.from_player, friend_request.to_player
    Friendship.objects.bulk_create(
        [Friendship(player=first, friend=second), Friendship(player=second, friend=first)],
        ignore_conflicts=True,
    )


def _close(friend_request: FriendRequest, status: str) -> None:
    friend_request.status = status
    friend_request.responded_at = timezone.now()
    friend_request.save(update_fields=["status", "responded_at"])


@transaction.atomic
def friend_request_accept(*, player: Player, request_id: int) -> FriendRequest:
    """Only the receiver may accept; the receiver's other open pages count one request fewer."""
    friend_request = _pending_request(request_id=request_id, to_player=player)
    _accept(friend_request)
    publish_friend_requests(player_id=player.pk, pending=_pending_for(player))
    return friend_request


@transaction.atomic
def friend_request_decline(*, player: Player, request_id: int) -> FriendRequest:
    """Only the receiver may decline; the sender is free to ask again later."""
    friend_request = _pending_request(request_id=request_id, to_player=player)
    _close(friend_request, FriendRequest.Status.DECLINED)
    publish_friend_requests(player_id=player.pk, pending=_pending_for(player))
    return friend_request


@transaction.atomic
def friend_request_cancel(*, player: Player, request_id: int) -> FriendRequest:
    """Only the sender may cancel; the receiver's pages count one request fewer."""
    friend_request = _pending_request(request_id=request_id, from_player=player)
    _close(friend_request, FriendRequest.Status.CANCELLED)
    receiver = friend_request.to_player
    publish_friend_requests(player_id=receiver.pk, pending=_pending_for(receiver))
    return friend_request


@transaction.atomic
def friend_remove(*, player: Player, friend_id: int) -> None:
    """End a friendship from either side: both directions go together."""
    removed, _ = Friendship.objects.filter(player=player, friend_id=friend_id).delete()
    if not removed:
        raise ServiceError(gettext("That player is not on your friends list."), code="not_friends")
    Friendship.objects.filter(player_id=friend_id, friend=player).delete()
