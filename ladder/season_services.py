"""Writes of the ladder's seasons: open each game's first season, and close the seasons that
ended (docs/ladder.md § Seasons).

A season is a run of calendar months in UTC (``LADDER_SEASON_MONTHS``). Closing one keeps the
game's leaderboard as it stood at the season's end (its final standings, the top places with a
badge) and opens the next season, in one transaction. The claim is the conditional update of
``Season.closed_at``: of two beat runs or two workers closing the same season, one updates the
row and the other (on PostgreSQL after waiting on its lock) finds it closed, so the standings
are kept once; the unique ``(game, number)`` and the one open season per game are the last
guards. Ratings carry over unchanged: no reset of σ (the reasons are in docs/ladder.md).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.catalog import GAME_TITLES

from . import selectors
from .models import Season, SeasonStanding

logger = logging.getLogger(__name__)

STANDINGS_BATCH = 500  # standings rows per INSERT when a season is kept


# --- The calendar -----------------------------------------------------------------------------


def month_start(when: datetime) -> datetime:
    """The first instant of ``when``'s calendar month in UTC."""
    return when.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def months_after(start: datetime, months: int) -> datetime:
    """``start``, the first instant of a month, ``months`` calendar months later."""
    index = start.month - 1 + months
    return start.replace(year=start.year + index // 12, month=index % 12 + 1)


def season_end(starts_at: datetime, *, now: datetime) -> datetime:
    """Where a season starting at ``starts_at`` ends: LADDER_SEASON_MONTHS later, or as many
    seasons' length later as it takes to end after ``now``. A season opened after the beat was
    away for longer than a season is then longer, rather than born closed with standings
    identical to the last one's."""
    months = settings.LADDER_SEASON_MONTHS
    if months < 1:
        raise ImproperlyConfigured("LADDER_SEASON_MONTHS must be at least 1.")
    end = months_after(starts_at, months)
    while end <= now:
        end = months_after(end, months)
    return end


# --- Opening and closing ----------------------------------------------------------------------


def season_first(*, game: str, now: datetime) -> Season:
    """The game's first season, opened now if it has none: it starts at the first of the
    current month (UTC). ``get_or_create`` makes it once, whoever else opens it at once."""
    starts_at = month_start(now)
    season, _created = Season.objects.get_or_create(
        game=game,
        number=1,
        defaults={"starts_at": starts_at, "ends_at": season_end(starts_at, now=now)},
    )
    return season


def seasons_close(*, now: datetime | None = None) -> list[Season]:
    """The beat's work (``ladder.tasks.close_seasons``): every game has a season, and every
    season whose end has passed is closed once. Returns the seasons this run closed."""
    now = now or timezone.now()
    for game in GAME_TITLES:
        season_first(game=game, now=now)
    due = Season.objects.filter(closed_at__isnull=True, ends_at__lte=now)
    ids = list(due.order_by("ends_at", "pk").values_list("pk", flat=True))
    return [season for pk in ids if (season := season_close(season_id=pk, now=now))]


def season_close(*, season_id: int, now: datetime | None = None) -> Season | None:
    """Close one season whose end has passed: keep its final standings, open the next season.
    Returns the season, or None when it has not ended or another run closed it first."""
    now = now or timezone.now()
    with transaction.atomic():
        claimed = Season.objects.filter(
            pk=season_id, closed_at__isnull=True, ends_at__lte=now
        ).update(closed_at=now)
        if not claimed:
            return None
        season = Season.objects.get(pk=season_id)
        kept = _keep_standings(season)
        Season.objects.create(
            game=season.game,
            number=season.number + 1,
            starts_at=season.ends_at,
            ends_at=season_end(season.ends_at, now=now),
        )
    logger.info("%s closed: %s standings kept.", season, kept)
    return season


def _keep_standings(season: Season) -> int:
    """Copy the leaderboard as it stood at the season's end (the activity window counted back
    from the end; the ratings as the close finds them) into the season's standings. One
    statement reads it, so it is one consistent picture while matches are being rated."""
    badges = settings.LADDER_SEASON_BADGES
    # ``rank`` is the leaderboard's annotation, which the type of its rows does not know.
    board: QuerySet[Any] = selectors.leaderboard(game=season.game, now=season.ends_at)
    rows = board.values("player_id", "rank", "display", "matches", "wins")
    standings = SeasonStanding.objects.bulk_create(
        (
            SeasonStanding(
                season=season,
                **row,
                badge=row["rank"] is not None and row["rank"] <= badges,
            )
            for row in rows
        ),
        batch_size=STANDINGS_BATCH,
    )
    return len(standings)
