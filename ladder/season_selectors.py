"""Reads of the ladder's seasons: the current one, the past ones, a closed season's final
standings, and a player's season badges (docs/ladder.md § Seasons)."""

from __future__ import annotations

from django.db.models import F, QuerySet

from accounts.models import Player

from .models import Season, SeasonStanding


def current_season(*, game: str) -> Season | None:
    """The game's open season (at most one: a constraint), None before the beat opened one."""
    return Season.objects.filter(game=game, closed_at__isnull=True).first()


def past_seasons(*, game: str) -> list[Season]:
    """The game's closed seasons, the latest first."""
    return list(Season.objects.filter(game=game, closed_at__isnull=False).order_by("-number"))


def season(*, game: str, number: int) -> Season | None:
    """Season ``number`` of the game, closed or running; None for a number it never had (a
    number beyond the column's range included: Django finds no row rather than failing)."""
    return Season.objects.filter(game=game, number=number).first()


def season_standings(*, season: Season) -> QuerySet[SeasonStanding]:
    """A closed season's standings as its leaderboard showed them: the ranked best first, then
    the provisional ones."""
    return season.standings.select_related("player").order_by(
        F("rank").asc(nulls_last=True), "-display", "player__name"
    )


def season_badges(*, player: Player) -> list[SeasonStanding]:
    """The player's top places, the latest season first."""
    return list(
        SeasonStanding.objects.filter(player=player, badge=True)
        .select_related("season")
        .order_by("-season__ends_at", "season__game")
    )
