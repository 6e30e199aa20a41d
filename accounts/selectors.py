"""Reads about players and friends (docs/architecture.md § The shape: reads live apart from
writes)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet, Sum

from .models import CoinAccount, CoinTransaction, FriendRequest, LedgerEntry, Player


def friends_of(player: Player) -> QuerySet[Player]:
    return Player.objects.filter(friendships__friend=player).order_by("name")


def incoming_requests(player: Player) -> QuerySet[FriendRequest]:
    return FriendRequest.objects.filter(
        to_player=player, status=FriendRequest.Status.PENDING
    ).select_related("from_player")


def outgoing_requests(player: Player) -> QuerySet[FriendRequest]:
    return FriendRequest.objects.filter(
        from_player=player, status=FriendRequest.Status.PENDING
    ).select_related("to_player")


# --- Domino Coin ------------------------------------------------------------------------------


def wallet_of(player: Player) -> CoinAccount | None:
    if player.is_guest:
        return None
    return CoinAccount.objects.filter(player=player).first()


def wallet_balance(player: Player) -> int:
    """What the player may spend now: 0 for a guest, who has no wallet."""
    wallet = wallet_of(player)
    return wallet.balance if wallet is not None else 0


def wallet_history(wallet: CoinAccount) -> QuerySet[LedgerEntry]:
    """The wallet's entries, newest first, with the transaction (kind, match, reason) of each."""
    return wallet.entries.select_related("transaction").order_by("-pk")


@dataclass
class CoinAudit:
    issued: int = 0
    in_wallets: int = 0
    in_escrow: int = 0
    transactions: int = 0
    violations: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


def coin_audit() -> CoinAudit:
    """The whole ledger: zero-sum transactions, cached balances, no overdraft, conservation."""
    audit = CoinAudit(transactions=CoinTransaction.objects.count())
    unbalanced = (
        LedgerEntry.objects.values("transaction__key")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
    )
    for row in unbalanced:
        audit.violations.append(
            f"transaction {row['transaction__key']} sums to {row['total']}, not 0"
        )
    empty = CoinTransaction.objects.filter(entries__isnull=True).values_list("key", flat=True)
    audit.violations.extend(f"transaction {key} has no entries" for key in empty)
    sums = dict(LedgerEntry.objects.values_list("account").annotate(total=Sum("amount")).order_by())
    for account in CoinAccount.objects.select_related("player"):
        from_entries = sums.get(account.pk, 0)
        if account.balance != from_entries:
            audit.violations.append(
                f"{account}: cached balance {account.balance} but entries sum to {from_entries}"
            )
        if account.kind == CoinAccount.Kind.SYSTEM:
            audit.issued = -from_entries
        else:
            if from_entries < 0:
                audit.violations.append(f"{account} is negative: {from_entries}")
            if account.kind == CoinAccount.Kind.WALLET:
                audit.in_wallets += from_entries
            else:
                audit.in_escrow += from_entries
    if audit.in_wallets + audit.in_escrow != audit.issued:
        audit.violations.append(
            f"wallets {audit.in_wallets} + escrow {audit.in_escrow} != issued {audit.issued}"
        )
    return audit
