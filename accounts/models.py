"""Players (registered or guest) and their friendships."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .names import shown_name


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
    # Refreshed by the player's open websockets; "online" means seen in the last minute or two.
    last_seen_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A new or changed name follows the name rule; a name stored before it is kept."""
        from .validators import validate_player_name

        stored = Player.objects.filter(pk=self.pk).values_list("name", flat=True).first()
        if self.name != stored:
            try:
                validate_player_name(self.name)
            except ValidationError as error:
                raise ValidationError({"name": error}) from None

    @property
    def is_guest(self) -> bool:
        return self.user_id is None

    @property
    def is_computer(self) -> bool:
        """A computer players' identity (``games.ComputerPlayer``, named here by its reverse
        relation): no user, like a guest, but nobody's guest session."""
        return hasattr(self, "computer")

    @property
    def display_name(self) -> str:
        """The name as the reader reads it: a guest's or a computer's in the active language
        (``accounts.names``); links and lookups keep using ``name``."""
        return shown_name(self.name)


class FriendRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

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


# --- Domino Coin ------------------------------------------------------------------------------


class ImmutableQuerySet(models.QuerySet):
    """Ledger rows are written once: bulk updates and deletes are refused."""

    def update(self, **kwargs):
        raise PermissionError("Domino Coin ledger rows cannot be changed.")

    def delete(self):
        raise PermissionError("Domino Coin ledger rows cannot be deleted.")


class ImmutableModel(models.Model):
    """A row that can be inserted and read, never changed or deleted (on PostgreSQL a trigger
    refuses it too, so raw SQL cannot get round this guard)."""

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise PermissionError("Domino Coin ledger rows cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("Domino Coin ledger rows cannot be deleted.")


class CoinAccount(models.Model):
    """Where coins are: a registered player's wallet, one match's escrow, or the system issuer.

    ``balance`` caches the sum of the account's entries; it changes only through
    ``accounts.services.wallet`` in the same transaction as the entries.
    """

    class Kind(models.TextChoices):
        WALLET = "wallet", "Player wallet"
        ESCROW = "escrow", "Match escrow"
        PRIZE = "prize", "Prize pool"
        SYSTEM = "system", "System (issues coins)"

    kind = models.CharField(max_length=6, choices=Kind.choices)
    player = models.OneToOneField(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="wallet"
    )
    match_id = models.PositiveBigIntegerField(null=True, blank=True, unique=True)
    # A prize pool's owner, named by the app that holds it ("tournament:42"): accounts knows no
    # tournament, only that entry fees wait here until the prizes or the refunds.
    pool_key = models.CharField(max_length=100, null=True, blank=True, unique=True)
    balance = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="system") | models.Q(balance__gte=0),
                name="coin_balance_not_negative",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(
                        kind="wallet",
                        player__isnull=False,
                        match_id__isnull=True,
                        pool_key__isnull=True,
                    )
                    | models.Q(
                        kind="escrow",
                        player__isnull=True,
                        match_id__isnull=False,
                        pool_key__isnull=True,
                    )
                    | models.Q(
                        kind="prize",
                        player__isnull=True,
                        match_id__isnull=True,
                        pool_key__isnull=False,
                    )
                    | models.Q(
                        kind="system",
                        player__isnull=True,
                        match_id__isnull=True,
                        pool_key__isnull=True,
                    )
                ),
                name="coin_account_owner_matches_kind_v2",
            ),
            models.UniqueConstraint(
                fields=["kind"], condition=models.Q(kind="system"), name="one_system_account"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.WALLET:
            return f"wallet of {self.player}"
        if self.kind == self.Kind.ESCROW:
            return f"escrow of match {self.match_id}"
        if self.kind == self.Kind.PRIZE:
            return f"prize pool {self.pool_key}"
        return "system"


class CoinTransaction(ImmutableModel):
    """One movement of coins: its entries sum to zero, and its key makes a retry a no-op."""

    class Kind(models.TextChoices):
        SIGNUP_GRANT = "signup_grant", _("Sign-up grant")
        DAILY_TOPUP = "daily_topup", _("Daily top-up")
        ADMIN_GRANT = "admin_grant", _("Granted by an admin")
        ADMIN_DEDUCT = "admin_deduct", _("Deducted by an admin")
        STAKE = "stake", _("Stake")
        PAYOUT = "payout", _("Winnings")
        REFUND = "refund", _("Refund")
        ENTRY_FEE = "entry_fee", _("Entry fee")
        PRIZE = "prize", _("Prize")
        ENTRY_REFUND = "entry_refund", _("Entry fee refunded")

    kind = models.CharField(max_length=12, choices=Kind.choices)
    key = models.CharField(max_length=200, unique=True)
    match_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    reason = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return self.key


class LedgerEntry(ImmutableModel):
    transaction = models.ForeignKey(
        CoinTransaction, on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(CoinAccount, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()

    class Meta:
        ordering = ["-pk"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(condition=~models.Q(amount=0), name="ledger_entry_not_zero"),
            models.UniqueConstraint(
                fields=["transaction", "account"], name="one_entry_per_account_per_transaction"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.account}"
