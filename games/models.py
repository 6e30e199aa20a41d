"""Tables, seats, invitations, matches and the append-only event log of every match."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import Player
from core import jsontext

from .catalog import GAME_TITLES, game_choices, validate_game


class GameField(models.CharField):
    """The id of a registered game: checked against the registry, not by ``choices``, so that a
    new game needs no migration; a form (the admin's too) offers the registry's games."""

    default_validators = [validate_game]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 20)
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        # In migrations a plain CharField: the column is one, and what it may hold is Python's
        # business (a field class of its own would make SQLite rebuild the tables).
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.CharField", args, kwargs

    def formfield(
        self,
        form_class: type[forms.Field] | None = None,
        choices_form_class: type[forms.ChoiceField] | None = None,
        **kwargs: Any,
    ) -> forms.Field | None:
        # Field's, not CharField's (a select has no max_length); a select, whatever widget a
        # text field would get (the admin's).
        kwargs.update(choices=game_choices, widget=forms.Select)
        return models.Field.formfield(self, forms.ChoiceField, **kwargs)


class Table(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        FRIENDS = "friends", _("Friends only")
        PASSWORD = "password", _("Password")
        # Made by quick play for the players it paired: seen by all like a public table, never
        # listed or joined while it waits for them (games.services.pools).
        POOL = "pool", _("Quick play")

    class Speed(models.TextChoices):
        """A table's clocks (docs/protocol.md § Clocks): a turn clock and a bank per seat per
        match, each preset's numbers a setting (games.services.clock.speed_limits)."""

        FAST = "fast", pgettext_lazy("table speed", "Fast")
        NORMAL = "normal", pgettext_lazy("table speed", "Normal")
        RELAXED = "relaxed", pgettext_lazy("table speed", "Relaxed")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("table status", "Open")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    game = GameField()
    options = models.JSONField(default=dict)
    stake = models.PositiveIntegerField(default=0, help_text="Domino Coin per seat; 0 is free.")
    speed = models.CharField(max_length=8, choices=Speed.choices, default=Speed.NORMAL)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    password_hash = models.CharField(max_length=256, blank=True)
    creator = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tables_created")
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    seats_total = models.PositiveSmallIntegerField()
    # The creator's choice; the match counts for the ladder only if :meth:`is_rated` holds.
    rated = models.BooleanField(default=False)
    # Who stood up when the last start failed for want of coins; the notice is rendered on
    # display so that each reader gets it in their own language.
    stood_up_for_stake = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Moves on every join: an open table nobody joins for a while expires.
    last_activity_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Player entropy (games/entropy.py): the server's secret, drawn when the full table first asks
    # for its seats' values; secret until the match ends (it moves into the match's ``entropy``).
    entropy_secret = models.CharField(max_length=64, blank=True)
    reveal_asked_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "game"])]

    def __str__(self) -> str:
        return f"{GAME_TITLES.get(self.game, self.game)} table #{self.pk}"

    @property
    def is_free(self) -> bool:
        return self.stake == 0

    def is_rated(self, seats: Iterable[Seat]) -> bool:
        """Rated, not casual: chosen so, and every seat a registered person's. A guest or a
        computer player makes the table casual; a computer that took over a seat its player
        forfeited does not (that player is rated, last)."""
        return self.rated and all(
            seat.player.user_id is not None and (seat.forfeited or not seat.is_bot)
            for seat in seats
        )

    @property
    def notice(self) -> str:
        """Why the table did not start, in the language of whoever reads it now."""
        if self.stood_up_for_stake is None:
            return ""
        return gettext(
            "%(name)s could no longer cover the %(stake)s-coin stake and left the seat; "
            "waiting for another player."
        ) % {"name": self.stood_up_for_stake.name, "stake": self.stake}


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # True while the table is open or playing: a player holds one active seat at a time.
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    # Live play: the seat's bank for the whole match (docs/protocol.md § Clocks). It is spent
    # while the table waits on this seat and either none of its player's sockets is open or its
    # turn clock ran out; ``bank_deadline`` is set meanwhile (when the bank runs out: an absent
    # seat forfeits, a present one gets the automatic move), ``bank_used_ms`` is what earlier
    # spells took, so short returns cannot stall a match.
    bank_deadline = models.DateTimeField(null=True, blank=True)
    bank_used_ms = models.PositiveIntegerField(default=0)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    forfeited = models.BooleanField(default=False)
    # A computer plays this seat: one put there (its player is a ComputerPlayer's), or, in
    # classic Joker, one that took over after its player forfeited.
    is_bot = models.BooleanField(default=False)
    bot_strength = models.CharField(
        max_length=6,
        choices=[("easy", _("Easy")), ("strong", _("Strong"))],
        blank=True,
        help_text="The computer's strength; blank for a person.",
    )
    hint_version = models.PositiveIntegerField(null=True, blank=True)  # of its last suggestion
    # Live play: the player has a live socket here (a TableConnection row); ``told``: they know
    # of the seat (paired_tables.seat_told), so an absence from it is their own.
    connected = models.BooleanField(default=True)
    told = models.BooleanField(default=True, db_default=True)
    wants_rematch = models.BooleanField(default=False)  # after the match: accepted a rematch
    # Player entropy: the SHA-256 its browser committed to, the value it revealed ("": none).
    entropy_commitment = models.CharField(max_length=64, blank=True)
    entropy_revealed = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_once"),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(active=True), name="one_active_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} (seat {self.position})"


class ComputerPlayer(models.Model):
    """A player identity that computers sit under: no user, so never rated and no wallet.

    A seat needs a player, and a player holds one active seat at a time, so the computers share
    a pool of these and take a free one (``games.services.bots.computer_player``)."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="computer")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.player.name


class Invitation(models.Model):
    """A friend invited to a table may sit without the password or being the creator's friend."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="invitation_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} invited to {self.table}"


class Match(models.Model):
    """The authoritative state of one match: the engine's ``to_dict()`` plus a version.

    Every move locks this row, applies through the engine, appends a MatchEvent and bumps the
    version in one transaction (docs/architecture.md § How a move travels).
    """

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="match")
    game = GameField()
    options = models.JSONField(default=dict)
    speed = models.CharField(max_length=8, choices=Table.Speed.choices, default=Table.Speed.NORMAL)
    # Secret until the match ends; its hash may be shown from the start (provably fair).
    # 64 hex digits, after ``sha256:`` for the SHA-256 deal (games/rules/cards.py).
    seed = models.CharField(max_length=80)
    seed_hash = models.CharField(max_length=64)
    # Where the seed came from (games/entropy.py); secret until the end, like the seed ({}: older).
    entropy = models.JSONField(default=dict, blank=True)
    state = jsontext.JSONField()  # written on every move: encoded and read by orjson
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    result = models.JSONField(null=True, blank=True)
    # When the seat to act gets an automatic move (docs/rules/README.md § 0.6 turn clock), or a
    # computer seat its move; the sweep finds due turns by this column.
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # The seat to act let its turn clock run out and spends its bank, until the deadline.
    turn_on_bank = models.BooleanField(default=False)
    # One more with every ``presence`` frame: orders the frames of one version (who is here).
    presence_version = models.PositiveIntegerField(default=0, db_default=0)  # old code inserts
    # Someone who holds no seat has the table open: only then is a spectators' frame built.
    watched = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{GAME_TITLES.get(self.game, self.game)} match #{self.pk}"


class MatchEvent(models.Model):
    """Append-only: seed + events rebuild any match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20, default="act")
    action = jsontext.JSONField(default=dict)
    client_action_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="event_version_unique"),
            # A client action id is applied once per seat (a resend after a reconnect is a no-op).
            models.UniqueConstraint(
                fields=["match", "seat", "client_action_id"],
                condition=~models.Q(client_action_id=""),
                name="event_client_action_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} v{self.version}: {self.kind}"


class LiveServer(models.Model):
    """One server process holding table sockets. Its heartbeat, one row written every few
    seconds, keeps the presence of all its sockets fresh; a process killed with ``kill -9``
    stops beating, and the live sweep removes it with its sockets (docs/protocol.md)."""

    name = models.CharField(max_length=100, unique=True)
    started_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name


class TableConnection(models.Model):
    """One open table socket. Presence is derived from these rows, never from a counter: a seat
    is connected while its player has a row at the table whose server is alive."""

    channel_name = models.CharField(max_length=200, unique=True)
    server = models.ForeignKey(LiveServer, on_delete=models.CASCADE, related_name="connections")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    # None: a visitor without a player (a spectator).
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    connected_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "player"])]

    def __str__(self) -> str:
        return f"{self.channel_name} at {self.table_id} (player {self.player_id})"


class PoolTicket(models.Model):
    """A player waiting for quick play, in one or more pools (its entries). Locked by the
    pairing that takes it (``FOR UPDATE … SKIP LOCKED``), so that two pools pairing at once
    never both seat one player; ``table`` is set while the player is paired and the table
    waits for everyone to arrive."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="pool_ticket")
    # The order of the queue: the oldest ticket first. A player sent back because someone else
    # did not arrive keeps it, so they are at the head of the pool again.
    joined_at = models.DateTimeField(db_index=True)
    # Casual pools only: seat computers after this many seconds with nobody found (None: wait).
    fill_after_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    bot_strength = models.CharField(max_length=6, default="easy")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="pool_tickets"
    )
    paired_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"pool ticket of {self.player_id}"


class PoolEntry(models.Model):
    """One pool a ticket waits in: a game at a speed, a stake, rated or casual."""

    ticket = models.ForeignKey(PoolTicket, on_delete=models.CASCADE, related_name="entries")
    game = GameField()
    speed = models.CharField(max_length=8, choices=Table.Speed.choices)
    stake = models.PositiveIntegerField()
    rated = models.BooleanField()
    # The table's seats (classic Joker's pools are one per seat count: 4, 3 or 2).
    seats = models.PositiveSmallIntegerField()
    # The player's rating in this game when they joined (the ladder's, through a hook): what
    # the pairing compares.
    rating = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["ticket", "game", "speed", "stake", "rated", "seats"],
                name="pool_entry_once_per_seats",
            )
        ]
        indexes = [
            models.Index(
                fields=["game", "speed", "stake", "rated", "seats"], name="pool_entry_pool"
            )
        ]

    def __str__(self) -> str:
        return (
            f"{self.ticket_id} in {self.game}/{self.speed}/{self.stake}/{self.rated}/{self.seats}"
        )


class MatchReview(models.Model):
    """The review of one seat's decisions in a finished match (games/review.py): asked for on the
    match's page, made by a low-priority task, kept (a second request returns it)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Being made")
        DONE = "done", _("Done")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="reviews"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    worlds = models.PositiveSmallIntegerField()  # the search's worlds per decision
    decisions = models.JSONField(default=list, blank=True)  # games.review.as_record
    summary = models.JSONField(default=dict, blank=True)  # games.review.summary
    seconds = models.FloatField(null=True, blank=True)  # CPU time the review took
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_review_once_a_seat")
        ]

    def __str__(self) -> str:
        return f"review of seat {self.seat} in match {self.match_id}"
