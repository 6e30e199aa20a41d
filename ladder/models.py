"""Ratings per player and game, the change every rated match made, voided matches, and the
ladder's seasons with their final standings.

A :class:`RatingChange` is the claim on a match: the unique ``(match, player)`` pair means a
match changes each rating once, however many times its task runs (README § Ladder).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from accounts.models import Player
from games.catalog import GAME_TITLES
from games.models import GameField, Match

from .rating import NEW_SKILL, Skill


class Rating(models.Model):
    """One registered player's standing in one game, kept in step with their rating changes."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = GameField()
    mu = models.FloatField(default=NEW_SKILL.mu)
    sigma = models.FloatField(default=NEW_SKILL.sigma)
    # The display rating (rating.Skill.display), stored so leaderboards sort in the database.
    display = models.IntegerField(default=NEW_SKILL.display)
    matches = models.PositiveIntegerField(default=0)  # rated matches, voided ones not counted
    wins = models.PositiveIntegerField(default=0)  # rated matches at first place (ties count)
    last_played_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-display"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_once_per_game"),
        ]
        indexes = [models.Index(fields=["game", "display"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.player} in {GAME_TITLES.get(self.game, self.game)}: {self.display}"

    @property
    def skill(self) -> Skill:
        return Skill(mu=self.mu, sigma=self.sigma)

    @property
    def provisional(self) -> bool:
        return self.matches < settings.LADDER_PROVISIONAL_MATCHES

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.matches if self.matches else None


class RatingChangeQuerySet(models.QuerySet):
    def counted(self) -> RatingChangeQuerySet:
        """The changes that count: those of matches nobody voided."""
        return self.filter(match__ladder_void__isnull=True)


class RatingChange(models.Model):
    """What one rated match did to one player's rating: skill and display, before and after.

    A recomputation (an admin's, or after a void) rewrites ``before``/``after`` of the player's
    later matches; the row stays, so the claim on the match stays."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = GameField()
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    before = models.IntegerField()
    after = models.IntegerField()
    delta = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RatingChangeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_change_once"),
        ]
        indexes = [models.Index(fields=["player", "game"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.player} in {self.match}: {self.before} → {self.after}"

    @property
    def won(self) -> bool:
        return self.place == 1


class MatchVoid(models.Model):
    """An admin voided a finished match: it never counts for the ladder (its result stands)."""

    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="ladder_void")
    reason = models.TextField(verbose_name=_("reason"))
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "voided match"
        verbose_name_plural = "voided matches"

    def __str__(self) -> str:
        return f"{self.match} voided"


class Season(models.Model):
    """One game's ladder season, ``[starts_at, ends_at)`` in UTC (docs/ladder.md § Seasons).

    ``closed_at`` is the claim: the close sets it with a conditional update, so a season's
    standings are kept once however many beat runs or workers close it."""

    game = GameField()
    number = models.PositiveIntegerField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="season_once_per_number"),
            # The close opens the next season in the transaction that closes this one.
            models.UniqueConstraint(
                fields=["game"], condition=Q(closed_at__isnull=True), name="season_one_open"
            ),
            models.CheckConstraint(
                condition=Q(ends_at__gt=F("starts_at")), name="season_ends_after_it_starts"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title}, season {self.number}"

    @property
    def title(self) -> str:
        return str(GAME_TITLES.get(self.game, self.game))

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


class SeasonStanding(models.Model):
    """One player's line in a closed season's final standings: the game's leaderboard as it
    stood at the season's end, kept as it was whatever happens to the ratings later."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_standings")
    rank = models.PositiveIntegerField(null=True, blank=True)  # None: provisional at the end
    display = models.IntegerField(verbose_name="rating")  # the display rating then
    matches = models.PositiveIntegerField()  # rated matches then (the leaderboard's count)
    wins = models.PositiveIntegerField()
    # A top place (rank <= LADDER_SEASON_BADGES at the close), decided once at the close.
    badge = models.BooleanField(default=False)

    class Meta:
        ordering = ["season", F("rank").asc(nulls_last=True), "-display"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_standing_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season}: #{self.rank or '—'} {self.display}"

    @property
    def provisional(self) -> bool:
        """On the leaderboard, and only there, a provisional rating has no rank."""
        return self.rank is None
