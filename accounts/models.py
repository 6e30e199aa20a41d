"""Players (registered or guest) and their friendships."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class Player(models.Model):
    """The one identity a seat points at: a registered user, or a guest bound to a session.

    A guest who signs up keeps this row (the user is attached to it), so their history stays.
    Users are never deleted while they have a player (PROTECT): deactivate them instead.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="player",
    )
    name = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class FriendRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    from_player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    to_player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="friend_requests_received"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["from_player", "to_player"],
                condition=models.Q(status="pending"),
                name="one_pending_request_per_pair",
            ),
            models.CheckConstraint(
                condition=~models.Q(from_player=models.F("to_player")),
                name="friend_request_not_to_self",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.from_player} → {self.to_player} ({self.status})"


class Friendship(models.Model):
    """One row per direction, written and removed in pairs, so "my friends" is one filter."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="friendships")
    friend = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["friend__name"]
        constraints = [
            models.UniqueConstraint(fields=["player", "friend"], name="friendship_unique_pair"),
            models.CheckConstraint(
                condition=~models.Q(player=models.F("friend")), name="friendship_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ♥ {self.friend}"
