"""Table chat, reports and sanctions, blocks, and the forfeits that cool-downs count.

Kept apart from ``games`` and ``accounts``, which import nothing of social: they call in through
hooks named in settings (the table socket, the join check, the forfeit, the sweep, the pages;
CONTRIBUTING.md § Hooks), and everything the social rules decide is here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import Player
from games.models import Match, Table


class Block(models.Model):
    """``blocker`` no longer hears from ``blocked``: no invitation, friend request, seat at
    their table or chat message from the blocked player reaches the blocker."""

    blocker = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class ChatMessage(models.Model):
    """One line of a table's chat, kept with the table (and its match) for the replay and for
    moderators. A preset phrase is stored by id and shown in each reader's language."""

    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="chat_messages"
    )
    sender = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="chat_messages")
    channel = models.CharField(max_length=10, choices=Channel.choices)
    phrase = models.CharField(max_length=20, blank=True)
    text = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["sender", "created_at"])]

    def __str__(self) -> str:
        return f"{self.sender}: {self.text or self.phrase}"


class Report(models.Model):
    """A player reported a message or a player from a table; moderators read it in the admin
    with the table's chat log."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("report status", "Open")
        RESOLVED = "resolved", _("Resolved")

    reporter = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="reports_made")
    reported = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="reports_about")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    message = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    reason = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.reporter} reported {self.reported} at {self.table}"


class Sanction(models.Model):
    """What a moderator did to a player: a chat mute until a time, or a ban (the account is
    deactivated)."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("Chat mute")
        BAN = "ban", _("Ban")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(max_length=4, choices=Kind.choices)
    until = models.DateTimeField(null=True, blank=True, help_text="A mute ends then.")
    reason = models.CharField(max_length=500, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="sanctions"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["player", "kind", "until"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.player}"


class Forfeit(models.Model):
    """Every forfeit of a seat, with whether it is the player's own doing: cool-downs and the
    reputation count these rows. ``excused``: the server lost the player's sockets (a crash,
    a restart) and the player did not come back before the seat forfeited, or the seat was a
    pairing none of the player's pages heard of (``Seat.told``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="forfeits")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="forfeits")
    reason = models.CharField(max_length=10)  # left, abandoned, absent, banned
    # A rated or stake match: only those count toward a cool-down.
    serious = models.BooleanField(default=False)
    excused = models.BooleanField(default=False)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="forfeit_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} forfeited {self.match} ({self.reason})"


class ServerLapse(models.Model):
    """A player's sockets at a table were lost with their server (it died or stopped). Until
    the player opens the table again, an absence there is the server's fault, not theirs."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="lapse_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} lost at {self.table} ({self.at})"


class Cooldown(models.Model):
    """A player who kept quitting may not sit at a table until ``until``; ``level`` is the
    step of the escalation (0: the first and shortest)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="cooldowns")
    level = models.PositiveSmallIntegerField()
    quits = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(db_index=True)
    until = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.player} cooling down until {self.until}"
