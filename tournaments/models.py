"""Tournaments: arenas and Swiss events on the tables, ratings and ledger the other apps keep.

A tournament's matches are ordinary matches at ordinary tables (``games``): this app only
decides who sits together and when, counts what each match ended with, and pays the prizes.
Every count is a row with a unique key (a ``TournamentResult`` per match and player), so a
result told twice counts once and the standings can always be recomputed from the rows.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import Player
from games.models import GameField, Table


class Schedule(models.Model):
    """A recurring event ("Japanese Joker Fast arena every day at 20:00 Tbilisi time"): beat
    creates each of its tournaments ahead of time (``TOURNAMENT_SCHEDULE_AHEAD_HOURS``)."""

    class Every(models.TextChoices):
        DAY = "day", _("Every day")
        WEEK = "week", _("Every week")

    name = models.CharField(max_length=80)
    every = models.CharField(max_length=4, choices=Every.choices, default=Every.DAY)
    weekday = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Weekly schedules: 0 is Monday, 6 Sunday."
    )
    time_of_day = models.TimeField(help_text="Local time in the schedule's time zone.")
    time_zone = models.CharField(max_length=64, default="Asia/Tbilisi")
    template = models.JSONField(
        default=dict,
        help_text="The tournament each occurrence creates: game, speed, format, rated, "
        "duration_minutes or rounds, entry_fee, prize_shares, options.",
    )
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Format(models.TextChoices):
        ARENA = "arena", _("Arena")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Upcoming")
        RUNNING = "running", pgettext_lazy("tournament status", "Running")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament status", "Cancelled")

    class Access(models.TextChoices):
        PUBLIC = "public", _("Public")
        FRIENDS = "friends", _("Friends only")
        PASSWORD = "password", _("Password")

    name = models.CharField(max_length=80)
    game = GameField()
    speed = models.CharField(max_length=8, choices=Table.Speed.choices, default=Table.Speed.FAST)
    format = models.CharField(max_length=5, choices=Format.choices, default=Format.ARENA)
    rated = models.BooleanField(default=True)
    options = models.JSONField(
        default=dict, blank=True, help_text="The matches' options (a shorter match, say)."
    )
    starts_at = models.DateTimeField()
    duration_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Arenas: how long pairing goes on."
    )
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss events.")
    round_number = models.PositiveSmallIntegerField(default=0)  # Swiss: the round being played
    entry_fee = models.PositiveIntegerField(default=0, help_text="Domino Coin; 0 is free.")
    prize_shares = models.JSONField(
        default=list, blank=True, help_text="Shares of the prize pool by place, best first."
    )
    access = models.CharField(max_length=8, choices=Access.choices, default=Access.PUBLIC)
    password_hash = models.CharField(max_length=256, blank=True)
    creator = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments_made"
    )
    schedule = models.ForeignKey(
        Schedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    occurrence = models.DateTimeField(null=True, blank=True)  # the schedule's slot it fills
    max_players = models.PositiveIntegerField(default=500)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.SCHEDULED)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)  # arenas: when pairing stops
    ended_at = models.DateTimeField(null=True, blank=True)
    prizes_paid_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["status", "starts_at"])]
        constraints = [
            # A schedule fills each of its slots once, however many beats run at once.
            models.UniqueConstraint(
                fields=["schedule", "occurrence"],
                condition=models.Q(schedule__isnull=False),
                name="one_tournament_per_schedule_slot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"


class Entrant(models.Model):
    """A player in a tournament. ``score`` and the rest are a cache of the results rows, kept in
    the transaction that writes them; ``tournaments.standings`` recomputes them."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    paused = models.BooleanField(default=False)  # arenas: not paired until they come back
    withdrawn = models.BooleanField(default=False)
    score = models.IntegerField(default=0)  # arena points, or Swiss half-points
    on_fire = models.BooleanField(default=False)
    had_bye = models.BooleanField(default=False)
    free_since = models.DateTimeField(null=True, blank=True)  # arenas: waiting to be paired
    rank = models.PositiveIntegerField(null=True, blank=True)  # final, once the event ends
    prize = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_each")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament_id}"


class TournamentTable(models.Model):
    """One table the tournament seated (an arena pairing, or a Swiss round's game)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="tournament_link")
    round_number = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    counted = models.BooleanField(default=False)  # its results are in the standings

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"table {self.table_id} of {self.tournament_id}"


class TournamentResult(models.Model):
    """What one player's match in the tournament counted: unique per table and player, so a
    result reported twice (a task run twice, two workers) counts once."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    tournament_table = models.ForeignKey(
        TournamentTable, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )  # None: a Swiss bye
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    round_number = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)  # None: a bye
    tied = models.PositiveSmallIntegerField(default=1)
    seats = models.PositiveSmallIntegerField(default=2)
    points = models.IntegerField(default=0)  # arena points, or Swiss half-points
    doubled = models.BooleanField(default=False)  # an arena streak's 🔥
    opponents = models.JSONField(default=list)  # the other players at the table, by id
    opponent_ratings = models.JSONField(default=list)  # theirs when counted (arena performance)
    recorded_at = models.DateTimeField(auto_now_add=True)
    # When the match ended (a bye: when it was given). A player's results count in this order,
    # not their rows' (a count may come late); None only in a row the previous release wrote
    # during a deploy, which goes by ``recorded_at`` (``selectors.play_order``).
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament_table", "player"], name="one_result_per_table_and_player"
            ),
            models.UniqueConstraint(
                fields=["tournament", "player", "round_number"],
                condition=models.Q(tournament_table__isnull=True),
                name="one_bye_per_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.points} in {self.tournament_id}"
