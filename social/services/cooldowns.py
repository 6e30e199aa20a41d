"""Cool-downs for quitters (lichess's playban): forfeits counted over a rolling window, an
escalating time away from the tables, and the forfeits the server caused left out.

Every forfeit is recorded (:func:`forfeit_recorded`, which the match service calls under the
match lock through ``GAMES_SEAT_FORFEITED``). It counts toward a cool-down when it was the
player's own doing in a rated or stake match: leaving, or being away until the absence bank or
the turn clock ran out. An absence that began when the player's server died or stopped (the
sweep removed its sockets: a crash, a restart) is the server's, not the player's, until the
player opens the table again (:class:`ServerLapse`, through ``GAMES_SOCKETS_LOST`` and
``GAMES_SOCKET_OPENED``); a forfeit then is excused. So is an absence from a seat the player
never heard of: a tournament's pairing that reached none of their pages (``Seat.told``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext

from accounts.models import Player
from core.errors import ServiceError
from games.models import Match, Seat, TableConnection

from ..models import Cooldown, Forfeit, ServerLapse

COUNTED_REASONS = ("left", "abandoned", "absent")


# --- The server's part ----------------------------------------------------------------------------


def server_lost(lost: Iterable[tuple[int, int | None]], *, now: datetime) -> None:
    """The sockets ``(table_id, player_id)`` went with their dead server (the sweep removed its
    row, and the rows of its sockets with it): each player left with no socket at that table has
    a lapse there."""
    pairs = {(table_id, player_id) for table_id, player_id in lost if player_id is not None}
    if not pairs:
        return
    tables = {table_id for table_id, _player in pairs}
    still_here = set(
        TableConnection.objects.filter(table_id__in=tables).values_list("table_id", "player_id")
    )
    ServerLapse.objects.bulk_create(
        [
            ServerLapse(table_id=table_id, player_id=player_id, at=now)
            for table_id, player_id in sorted(pairs - still_here)
        ],
        ignore_conflicts=True,
    )


def lapse_clear(*, table_id: int, player: Player | None) -> None:
    """The player opened the table again: from now on an absence there is theirs."""
    if player is not None:
        ServerLapse.objects.filter(table_id=table_id, player=player).delete()


# --- Forfeits and cool-downs ----------------------------------------------------------------------


def forfeit_recorded(
    match: Match, seats: list[Seat], seat: Seat, *, reason: str, now: datetime
) -> Forfeit:
    """Note a forfeit (match lock held); a counted one may start the player's cool-down."""
    table = match.table
    # A seat someone else gave the player (a tournament's pairing) that none of their pages
    # heard of is not theirs to miss; nor is an absence their server's death began.
    excused = reason != "left" and (
        not seat.told
        or ServerLapse.objects.filter(table_id=table.pk, player_id=seat.player_id).exists()
    )
    forfeit, created = Forfeit.objects.get_or_create(
        player_id=seat.player_id,
        match=match,
        defaults={
            "reason": reason,
            "serious": bool(table.stake) or table.is_rated(seats),
            "excused": excused,
            "created_at": now,
        },
    )
    if created and forfeit.serious and not excused and reason in COUNTED_REASONS:
        _cool_down_if_due(seat.player_id, now)
    return forfeit


def _counted(player_id: int) -> QuerySet[Forfeit]:
    return Forfeit.objects.filter(
        player_id=player_id, serious=True, excused=False, reason__in=COUNTED_REASONS
    )


def _cool_down_if_due(player_id: int, now: datetime) -> Cooldown | None:
    """Enough counted forfeits in the window since the last cool-down: the next step."""
    last = Cooldown.objects.filter(player_id=player_id).order_by("-created_at").first()
    since = now - timedelta(hours=settings.COOLDOWN_WINDOW_HOURS)
    if last is not None and last.created_at > since:
        since = last.created_at  # the forfeits that earned a cool-down never earn another
    quits = _counted(player_id).filter(created_at__gt=since).count()
    if quits < settings.COOLDOWN_QUITS:
        return None
    steps = settings.COOLDOWN_STEPS_MINUTES
    recent = last is not None and last.created_at > now - timedelta(
        days=settings.COOLDOWN_ESCALATION_DAYS
    )
    level = min(last.level + 1, len(steps) - 1) if recent and last is not None else 0
    return Cooldown.objects.create(
        player_id=player_id,
        level=level,
        quits=quits,
        created_at=now,
        until=now + timedelta(minutes=steps[level]),
    )


def active_cooldown(player: Player | None, now: datetime | None = None) -> Cooldown | None:
    if player is None or player.pk is None:
        return None
    now = now or timezone.now()
    return Cooldown.objects.filter(player=player, until__gt=now).order_by("-until").first()


def cooldown_reason(cooldown: Cooldown) -> str:
    """Why the player may not sit, and until when, in the active language."""
    return gettext(
        "You left or abandoned %(count)s rated or stake matches within %(hours)s hours, so you "
        "cannot take a seat until %(time)s UTC."
    ) % {
        "count": cooldown.quits,
        "hours": f"{settings.COOLDOWN_WINDOW_HOURS:g}",
        "time": formats.date_format(cooldown.until, "Y-m-d H:i"),
    }


def require_may_sit(player: Player, now: datetime | None = None) -> None:
    """The check of every way to a seat (create, join, rematch; ``GAMES_JOIN_CHECKS``): refused
    while cooling down."""
    cooldown = active_cooldown(player, now)
    if cooldown is not None:
        raise ServiceError(cooldown_reason(cooldown), code="cooldown")
