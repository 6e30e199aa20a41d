"""Invitations: a seated player asks a friend to a table; the friend hears of it live and may
sit without the password (and see a friends-only table)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts import hooks as accounts_hooks
from accounts.models import Friendship, Player
from core.errors import ServiceError

from .. import realtime
from ..models import Invitation
from .lobby import table_publish
from .tables import locked_table, require_open


def table_invite(*, inviter: Player, table_id: int, friend_id: int) -> Invitation:
    """Invite a friend; they get a live notification and may sit without the password."""
    with transaction.atomic():
        table = locked_table(table_id)
        require_open(table)
        if not table.seats.filter(player=inviter).exists():
            raise ServiceError(gettext("Only players at the table can invite."), code="not_seated")
        friend = Player.objects.filter(pk=friend_id).first()
        if friend is None or not Friendship.objects.filter(player=inviter, friend=friend).exists():
            raise ServiceError(gettext("You can invite only your friends."), code="not_friend")
        accounts_hooks.request_checks(sender=inviter, target=friend)  # social: blocks
        if table.seats.filter(player=friend).exists():
            raise ServiceError(
                gettext("%(name)s is already at this table.") % {"name": friend.name}, code="seated"
            )
        if table.stake and friend.is_guest:
            raise ServiceError(gettext("Guests cannot sit at coin tables."), code="guest_coins")
        invitation, _created = Invitation.objects.update_or_create(
            table=table, player=friend, defaults={"invited_by": inviter}
        )
        realtime.publish_on_commit(
            realtime.player_group(friend.pk),
            {
                "type": "player.invited",
                "table": table.pk,
                "game": table.game,
                "stake": table.stake,
                "from": inviter.name,
                "url": f"/tables/{table.pk}/",
            },
        )
        table_publish(table)  # a friends-only table is now visible to the invited player
    return invitation
