"""Who is behind a websocket, and ending its sockets when that stops being true.

A socket is opened with a session and keeps it while open. When the session ends (logout) or
the account's password changes, every socket of the player is told at once through the player's
sockets group and closes with 4003; a deactivation (a ban, the user admin) does the same through
``accounts.services.user_deactivate``. The sockets also check their session's expiry on every
move, and a process-wide beat re-reads every session and account every few beats, which catches
what nothing announces (an expired or deleted session, an account switched off by hand).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from channels.exceptions import StopConsumer
from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db import Error as DatabaseError
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from core.outage import database_unavailable, is_connection_failure
from core.pool import run_db
from core.websocket import CLOSE_UNAVAILABLE, GroupsMixin

from .access import player_from
from .models import Player
from .realtime import end_sockets, sockets_group


def player_from_session(session: Any) -> Player | None:
    """The player behind a socket's session (resolved after the handshake, off the event loop):
    the user the session is logged in as, checked like a page request checks it, else a guest."""
    # get_user reads only ``request.session``, so a namespace holding the socket's session will do.
    request: Any = SimpleNamespace(session=session)
    user = auth.get_user(request) if session is not None else None
    return player_from(user, session)


def session_expiry(session_key: str | None) -> datetime | None:
    """When the session expires, None if it does not exist (a visitor without a session)."""
    if not session_key:
        return None
    return (
        Session.objects.filter(session_key=session_key)
        .values_list("expire_date", flat=True)
        .first()
    )


def sessions_alive(session_keys: set[str], now: datetime) -> set[str]:
    """Which of these sessions still exist and have not expired: one query for a whole process."""
    if not session_keys:
        return set()
    return set(
        Session.objects.filter(session_key__in=session_keys, expire_date__gt=now).values_list(
            "session_key", flat=True
        )
    )


def players_active(player_ids: set[int]) -> set[int]:
    """Which players may still play: guests, and registered players whose account is active."""
    if not player_ids:
        return set()
    return set(
        Player.objects.filter(pk__in=player_ids)
        .exclude(user__is_active=False)
        .values_list("pk", flat=True)
    )


# --- What ends sockets ----------------------------------------------------------------------------


@receiver(user_logged_out)
def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    player_id = Player.objects.filter(user=user).values_list("pk", flat=True).first()
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if player_id is not None and session_key:
        end_sockets(player_id=player_id, session_key=session_key)


@receiver(post_save, sender=auth.get_user_model())
def _password_changed(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """A save that stores a new password (``set_password`` keeps the raw one until the save
    ends; a login's hash upgrade clears it first) ends every socket of the player. Any other
    save, a login's among them, reads nothing."""
    if created or getattr(instance, "_password", None) is None:
        return
    player_id = Player.objects.filter(user=instance).values_list("pk", flat=True).first()
    if player_id is not None:
        end_sockets(player_id=player_id)


# --- The socket side ------------------------------------------------------------------------------

CLOSE_SESSION_ENDED = 4003


def _identify(session: Any) -> tuple[Player | None, datetime | None]:
    player = player_from_session(session)
    if player is None:
        return None, None
    # Finding the player loaded the session; its row's expiry came with it where the store
    # keeps it (core.websocket.SocketSessionMiddleware).
    expiry = getattr(session, "loaded_expiry", None)
    return player, expiry or session_expiry(getattr(session, "session_key", None))


class PlayerSocketMixin(GroupsMixin):
    """A socket that knows its player (found after the handshake, in the database pool, never
    from anything the client sends) and closes with 4003 when the player's session ends."""

    scope: Any  # the consumer's ASGI scope
    player: Player | None = None
    player_id: int | None = None
    session_key: str | None = None
    session_expires: datetime | None = None

    async def identify(self, also: Callable[[], Iterable[str]] = tuple) -> None:
        """The socket's first database work, then its groups: the player's sockets group and
        ``also()`` (the consumer's, read once the player is known), joined in one trip. When
        the database is unavailable the socket can do nothing: it closes with 4011 and its
        consumer ends, before joining any group."""
        session = self.scope.get("session")
        try:
            self.player, self.session_expires = await run_db(_identify, session)
        except DatabaseError as error:
            if not is_connection_failure(error):
                raise
            database_unavailable(error)
            await self.close(code=CLOSE_UNAVAILABLE)  # type: ignore[attr-defined]
            raise StopConsumer from None
        if self.player is not None:
            self.player_id = self.player.pk
            self.session_key = getattr(session, "session_key", None)
            await self.join(sockets_group(self.player_id), *also())
        else:
            await self.join(*also())

    async def session_valid(self) -> bool:
        """Checked without the database until the cached expiry has passed."""
        if self.session_expires is None or timezone.now() < self.session_expires:
            return True
        self.session_expires = await run_db(session_expiry, self.session_key)
        return self.session_expires is not None and timezone.now() < self.session_expires

    async def session_ended(self, event: dict[str, Any]) -> None:
        key = event.get("session_key")
        if key is None or key == self.session_key:
            await self.end_session()

    async def end_session(self) -> None:
        await self.close(code=CLOSE_SESSION_ENDED)  # type: ignore[attr-defined]
