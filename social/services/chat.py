"""Table chat: who may say what, where it goes, and what it stores.

Players talk to the table; spectators talk among themselves, and while the match is not over
their lines go to the spectators' group only, so no hint from the rail reaches a seat (the table
socket also drops a spectators' line at a seated socket). Once the match is over both are shown
to everyone. A line from a player someone at the table blocked is marked for their sockets to
drop. Every line is stored with the table and its match (the replay, the moderators' log).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import formats, timezone
from django.utils.translation import gettext

from accounts.models import Player
from core.errors import ServiceError
from games import realtime
from games.models import Match, Seat, Table, TableConnection

from ..models import Block, ChatMessage, Sanction
from ..phrases import PHRASES

CHAT = "table.chat"  # the channel-layer type of a line (served by ``social.sockets``)


def chat_frame(message: ChatMessage, seat: int | None) -> dict[str, Any]:
    """The ``chat`` frame of docs/protocol.md; a phrase's text is filled in by each socket, in its
    reader's language."""
    return {
        "type": "chat",
        "id": message.pk,
        "from": {"id": message.sender_id, "name": message.sender.name, "seat": seat},
        "channel": message.channel,
        "phrase": message.phrase or None,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }


def muted_until(player: Player, now: datetime) -> datetime | None:
    """The end of the player's chat mute, None if they may talk."""
    return (
        Sanction.objects.filter(player=player, kind=Sanction.Kind.MUTE, until__gt=now)
        .order_by("-until")
        .values_list("until", flat=True)
        .first()
    )


def _check_sender(player: Player, phrase: str, text: str, now: datetime) -> None:
    if text and player.is_guest:
        raise ServiceError(
            gettext("Guests can send the preset phrases only. Sign up to write your own."),
            code="chat_guest",
        )
    if phrase and phrase not in PHRASES:
        raise ServiceError(gettext("There is no such phrase."), code="bad_message")
    until = muted_until(player, now)
    if until is not None:
        raise ServiceError(
            gettext("A moderator muted your chat until %(time)s UTC.")
            % {"time": formats.date_format(until, "Y-m-d H:i")},
            code="chat_muted",
        )
    window = now - timedelta(seconds=settings.CHAT_RATE_SECONDS)
    if (
        ChatMessage.objects.filter(sender=player, created_at__gt=window).count()
        >= settings.CHAT_RATE_COUNT
    ):
        raise ServiceError(
            gettext("At most %(count)s messages in %(seconds)s seconds; wait a moment.")
            % {"count": settings.CHAT_RATE_COUNT, "seconds": settings.CHAT_RATE_SECONDS},
            code="chat_rate",
        )


def chat_send(
    *,
    table_id: int,
    player: Player | None,
    phrase: str = "",
    text: str = "",
    now: datetime | None = None,
) -> ChatMessage:
    """Store one line and publish it after commit to the sockets that may read it."""
    now = now or timezone.now()
    if player is None:
        raise ServiceError(gettext("Play as a guest or log in to chat."), code="chat_anonymous")
    _check_sender(player, phrase, text, now)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError(gettext("There is no such table."), code="no_table")
    seat = (
        Seat.objects.filter(table=table, player=player).values_list("position", flat=True).first()
    )
    channel = ChatMessage.Channel.PLAYERS if seat is not None else ChatMessage.Channel.SPECTATORS
    match_id = Match.objects.filter(table=table).values_list("pk", flat=True).first()
    message = ChatMessage.objects.create(
        table=table,
        match_id=match_id,
        sender=player,
        channel=channel,
        phrase=phrase,
        text=text,
        created_at=now,
    )
    at_table = TableConnection.objects.filter(table=table).values("player_id")
    hide_from = sorted(
        Block.objects.filter(blocked=player, blocker_id__in=at_table).values_list(
            "blocker_id", flat=True
        )
    )
    rail_only = channel == ChatMessage.Channel.SPECTATORS and not match_over(table)
    group = (
        realtime.table_spectator_group(table.pk) if rail_only else realtime.table_group(table.pk)
    )
    realtime.publish_on_commit(
        group,
        {
            "type": CHAT,
            "frame": chat_frame(message, seat),
            "hide_from": hide_from,
            "rail_only": rail_only,
        },
    )
    return message


def match_over(table: Table) -> bool:
    """Spectators' lines reach the players only once the table's match is over."""
    return table.status in (Table.Status.FINISHED, Table.Status.CANCELLED)
