"""Reports and what moderators do about them: mute a player's chat until a time, or ban the
account. A ban deactivates the user through ``accounts.services.user_deactivate``, which closes
every socket of the player at once and forfeits or frees the seat they hold."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from accounts.services import user_deactivate
from core.errors import ServiceError
from games.models import Match, Table

from ..models import ChatMessage, Report, Sanction

MAX_REASON = 500


def report_create(
    *,
    reporter: Player | None,
    table_id: int,
    player_id: int | None = None,
    message_id: int | None = None,
    reason: str = "",
) -> Report:
    """Report a chat message (its sender is reported) or a player at the table; the match, if
    any, goes with it. The same report twice is one report."""
    if reporter is None:
        raise ServiceError(gettext("Play as a guest or log in to report."), code="anonymous")
    reason = (reason or "").strip()[:MAX_REASON]
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError(gettext("There is no such table."), code="no_table")
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, table=table).first()
        if message is None:
            raise ServiceError(
                gettext("There is no such message at this table."), code="no_message"
            )
        player_id = message.sender_id
    if player_id is None:
        raise ServiceError(gettext("That player is not at this table."), code="no_player")
    at_table = Q(seats__table=table) | Q(chat_messages__table=table)
    reported = Player.objects.filter(at_table, pk=player_id).distinct().first()
    if reported is None:
        raise ServiceError(gettext("That player is not at this table."), code="no_player")
    if reported.pk == reporter.pk:
        raise ServiceError(gettext("You cannot report yourself."), code="self")
    match = Match.objects.filter(table=table).first()
    report, _created = Report.objects.get_or_create(
        reporter=reporter,
        reported=reported,
        table=table,
        message=message,
        status=Report.Status.OPEN,
        defaults={"match": match, "reason": reason},
    )
    return report


def report_resolve(*, report: Report) -> None:
    Report.objects.filter(pk=report.pk).update(
        status=Report.Status.RESOLVED, resolved_at=timezone.now()
    )


def chat_mute(
    *,
    player: Player,
    until: datetime,
    by: Any = None,
    reason: str = "",
    report: Report | None = None,
) -> Sanction:
    """The player's chat is silent until ``until`` (every table, presets included)."""
    if until <= timezone.now():
        raise ServiceError(gettext("A mute must end in the future."), code="past")
    return Sanction.objects.create(
        player=player,
        kind=Sanction.Kind.MUTE,
        until=until,
        by=by,
        reason=reason[:MAX_REASON],
        report=report,
    )


def account_ban(
    *, player: Player, by: Any = None, reason: str = "", report: Report | None = None
) -> Sanction:
    """Deactivate the account (``user_deactivate``: its sockets close, its seat is given up or
    forfeited) and note the ban, in one transaction."""
    if player.user is None:
        raise ServiceError(gettext("A guest has no account to ban."), code="guest")
    with transaction.atomic():
        user_deactivate(user=player.user)
        return Sanction.objects.create(
            player=player, kind=Sanction.Kind.BAN, by=by, reason=reason[:MAX_REASON], report=report
        )
