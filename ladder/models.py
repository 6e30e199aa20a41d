"""Ratings per player and game, the change every rated match made, and voided matches.

A :class:`RatingChange` is the claim on a match: the unique ``(match, player)`` pair means a
match changes each rating once, however many times its task runs (README § Ladder).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
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
