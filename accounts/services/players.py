"""Players: guests, the player behind each registered user, and an account's deactivation."""

from __future__ import annotations

import datetime
import secrets

from django.contrib.auth.models import User
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext

from core.errors import ServiceError

from .. import hooks
from ..models import Player
from ..names import guest_name
from ..realtime import end_sockets
from .wallet import wallet_open

SESSION_GUEST_KEY = "guest_player_id"
SEEN_EVERY = datetime.timedelta(seconds=20)


def _guest_name(digits: int) -> str:
    return guest_name(f"{secrets.randbelow(10**digits):0{digits}d}")


def player_create_guest(*, session) -> Player:
    """A guest player bound to ``session``, with a readable generated name like Guest-4821."""
    for attempt in range(20):
        # Four digits read best; widen only when that space is crowded.
        name = _guest_name(4 + attempt // 5)
        try:
            with transaction.atomic():
                player = Player.objects.create(name=name)
        except IntegrityError:
            continue
        session[SESSION_GUEST_KEY] = player.pk
        return player
    raise ServiceError(gettext("Could not find a free guest name; please try again."))


def player_for_user(*, user: User, session=None) -> Player:
    """The user's player, made on first need; a guest in the same session is upgraded in place."""
    existing = Player.objects.filter(user=user).first()
    if existing is not None:
        return existing
    guest_id = session.get(SESSION_GUEST_KEY) if session is not None else None
    with transaction.atomic():
        guest = (
            Player.objects.select_for_update().filter(pk=guest_id, user__isnull=True).first()
            if guest_id
            else None
        )
        if guest is not None:
            # The guest keeps their row, and so every seat and result that points at it.
            guest.user = user
            guest.name = user.get_username()
            guest.save(update_fields=["user", "name"])
            player = guest
        else:
            player = Player.objects.create(user=user, name=user.get_username())
        wallet_open(player=player)
    if session is not None:
        session.pop(SESSION_GUEST_KEY, None)
    return player


def player_seen(*, player_id: int, now: datetime.datetime) -> None:
    """Mark the player online; at most one write per 20 s however often their sockets ping."""
    Player.objects.filter(pk=player_id).filter(
        models.Q(last_seen_at__isnull=True) | models.Q(last_seen_at__lt=now - SEEN_EVERY)
    ).update(last_seen_at=now)


def user_deactivate(*, user: User) -> None:
    """Switch an account off (a moderator's ban, the user admin), in one transaction: the user
    row, then what the apps above hold of its player (``ACCOUNTS_PLAYER_DEACTIVATED``: games
    gives up or forfeits the seat); every socket of the player closes after the commit. The one
    way an account is deactivated, so no save of a user has to look for it. Twice changes
    nothing more."""
    with transaction.atomic():
        user.is_active = False
        user.save(update_fields=["is_active"])  # Lock: the user row first (docs/concurrency.md).
        player = Player.objects.filter(user=user).first()
        if player is None:  # a user who never opened a page has no seat and no socket
            return
        end_sockets(player_id=player.pk)  # after the commit, ahead of the seat's frames
        hooks.player_deactivated(player)
