"""Domino Coin: every movement is a zero-sum transaction of ledger entries
(docs/architecture.md § How a coin travels).

Rules every function here keeps:
- a movement locks all the accounts it touches, in id order, before it reads a balance: two
  movements that share an account queue instead of both spending the same coins, and two that
  lock overlapping sets cannot deadlock;
- each movement has a unique key, so calling a service again (a retried task, a double click)
  finds the first transaction and changes nothing;
- balances change with ``F()`` in the same transaction as the entries, and the database's
  ``CHECK (balance >= 0)`` is the last word on overdrafts.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Sum, Value, When
from django.utils.translation import gettext, ngettext

from core.errors import ServiceError

from ..models import CoinAccount, CoinTransaction, LedgerEntry, Player

Kind = CoinTransaction.Kind


class InsufficientCoins(ServiceError):
    code = "insufficient_coins"

    def __init__(self, message: str, *, player: Player | None = None) -> None:
        super().__init__(message)
        self.player = player


@dataclass(frozen=True)
class Stake:
    """One seat's stake at match start."""

    seat: int
    player: Player
    amount: int


def system_account() -> CoinAccount:
    """The issuer: coins enter the game from here and its balance is minus all coins issued."""
    account = CoinAccount.objects.filter(kind=CoinAccount.Kind.SYSTEM).first()
    if account is not None:
        return account
    try:
        with transaction.atomic():
            return CoinAccount.objects.create(kind=CoinAccount.Kind.SYSTEM)
    except IntegrityError:  # another process made it first
        return CoinAccount.objects.get(kind=CoinAccount.Kind.SYSTEM)


def _wallet(player: Player) -> CoinAccount:
    account = CoinAccount.objects.filter(player=player).first()
    if account is None:
        raise ServiceError(
            gettext("Guests have no Domino Coin wallet; sign up to play for coins."),
            code="no_wallet",
        )
    return account


def _lock(account_ids: Iterable[int]) -> dict[int, CoinAccount]:
    ids = sorted(set(account_ids))
    return {
        a.pk: a for a in CoinAccount.objects.select_for_update().filter(pk__in=ids).order_by("pk")
    }


def _post(
    *,
    key: str,
    kind: str,
    legs: Sequence[tuple[CoinAccount, int]],
    match_id: int | None = None,
    reason: str = "",
    created_by: User | None = None,
) -> tuple[CoinTransaction, bool]:
    """Write one movement; returns (transaction, whether it is new). A known key is a no-op."""
    legs = [(account, amount) for account, amount in legs if amount]
    if sum(amount for _, amount in legs) != 0:
        raise ValueError(f"A coin movement must sum to zero: {key}")
    with transaction.atomic():
        # Lock first (id order), then look for the key: the first of two racing retries writes,
        # the second waits on the lock and then finds the key.
        locked = _lock(account.pk for account, _ in legs)
        existing = CoinTransaction.objects.filter(key=key).first()
        if existing is not None:
            return existing, False
        for account, amount in legs:
            current = locked[account.pk]
            if current.kind != CoinAccount.Kind.SYSTEM and current.balance + amount < 0:
                owner = current.player
                raise InsufficientCoins(
                    ngettext(
                        "%(owner)s has %(balance)s coin, %(needed)s needed.",
                        "%(owner)s has %(balance)s coins, %(needed)s needed.",
                        current.balance,
                    )
                    % {
                        "owner": owner.name if owner else current,
                        "balance": current.balance,
                        "needed": -amount,
                    },
                    player=owner,
                )
        movement = CoinTransaction.objects.create(
            key=key, kind=kind, match_id=match_id, reason=reason, created_by=created_by
        )
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(transaction=movement, account=account, amount=amount)
                for account, amount in legs
            ]
        )
        # Every balance in one statement: a match's stakes move N + 1 accounts at once.
        change = {account.pk: 0 for account, _ in legs}
        for account, amount in legs:
            change[account.pk] += amount
        CoinAccount.objects.filter(pk__in=change).update(
            balance=F("balance")
            + Case(*(When(pk=pk, then=Value(amount)) for pk, amount in change.items()))
        )
    return movement, True


# --- Wallets and grants ------------------------------------------------------------------------


def wallet_open(*, player: Player) -> CoinAccount:
    """A registered player's wallet, with the sign-up grant (once, whatever happens).

    An operator's account (staff or superuser, as ``createsuperuser`` makes one) gets an empty
    wallet: the grant welcomes people who sign up to play, and coins an operator wants come
    from an admin adjustment, with its reason on the ledger."""
    if player.is_guest:
        raise ServiceError(gettext("Guests have no Domino Coin wallet."), code="no_wallet")
    operator = player.user is not None and (player.user.is_staff or player.user.is_superuser)
    with transaction.atomic():
        wallet, _ = CoinAccount.objects.get_or_create(
            player=player, defaults={"kind": CoinAccount.Kind.WALLET}
        )
        if operator:
            return wallet
        _post(
            key=f"grant:signup:{player.pk}",
            kind=Kind.SIGNUP_GRANT,
            legs=[
                (system_account(), -settings.COIN_SIGNUP_GRANT),
                (wallet, settings.COIN_SIGNUP_GRANT),
            ],
        )
    wallet.refresh_from_db(fields=["balance"])
    return wallet


def wallet_claim_daily(*, player: Player, today: datetime.date) -> CoinTransaction:
    """The daily top-up: once per (UTC) day, only while the balance is below the threshold."""
    wallet = _wallet(player)
    key = f"grant:daily:{player.pk}:{today.isoformat()}"
    amount = settings.COIN_DAILY_TOPUP_AMOUNT
    below = settings.COIN_DAILY_TOPUP_BELOW
    with transaction.atomic():
        locked = _lock([wallet.pk])[wallet.pk]
        if CoinTransaction.objects.filter(key=key).exists():
            raise ServiceError(
                gettext("You have already claimed today’s top-up. Come back tomorrow."),
                code="claimed",
            )
        if locked.balance >= below:
            raise ServiceError(
                ngettext(
                    "The daily top-up is for balances below %(below)s coin; you have %(balance)s.",
                    "The daily top-up is for balances below %(below)s coins; you have %(balance)s.",
                    below,
                )
                % {"below": below, "balance": locked.balance},
                code="not_eligible",
            )
        movement, _ = _post(
            key=key,
            kind=Kind.DAILY_TOPUP,
            legs=[(system_account(), -amount), (wallet, amount)],
        )
    return movement


def can_claim_daily(*, wallet: CoinAccount, today: datetime.date) -> bool:
    return (
        wallet.balance < settings.COIN_DAILY_TOPUP_BELOW
        and not CoinTransaction.objects.filter(
            key=f"grant:daily:{wallet.player_id}:{today.isoformat()}"
        ).exists()
    )


def wallet_admin_adjust(
    *, wallet: CoinAccount, amount: int, reason: str, admin: User | None, key: str
) -> CoinTransaction:
    """An admin grants (amount > 0) or deducts (amount < 0) coins, with a reason on record."""
    if wallet.kind != CoinAccount.Kind.WALLET:
        raise ServiceError(gettext("Coins can be granted or deducted on player wallets only."))
    if not amount:
        raise ServiceError(gettext("The amount must not be zero."))
    reason = reason.strip()
    if not reason:
        raise ServiceError(gettext("Give a reason: it is kept in the ledger."))
    kind = Kind.ADMIN_GRANT if amount > 0 else Kind.ADMIN_DEDUCT
    movement, _ = _post(
        key=key,
        kind=kind,
        legs=[(system_account(), -amount), (wallet, amount)],
        reason=reason,
        created_by=admin,
    )
    return movement


# --- Matches -----------------------------------------------------------------------------------


def wallet_stake(*, match_id: int, stakes: Sequence[Stake]) -> None:
    """Move every seat's stake into the match's escrow, all or nothing: one ledger transaction
    (``stake:<match>``) with a line per seat and the escrow's, as a match starts on its pair's
    path (issue 43 § 1: a statement a seat cost a quick-play pair ten).

    Raises :class:`InsufficientCoins` naming the first player who cannot cover their stake; then
    no stake moves. Called again for the same match, it finds its transaction and changes
    nothing. Matches started before December 2026 have one ``stake:<match>:<seat>`` transaction
    a seat instead; refunds and the audit read both alike (by kind, not by key).
    """
    players = [stake.player for stake in stakes]
    wallets = {w.player_id: w for w in CoinAccount.objects.filter(player__in=players)}
    for player in players:
        if player.pk not in wallets:
            _wallet(player)  # raises: a guest has no wallet
    with transaction.atomic():
        # Made, or found when this runs again for the match: one statement either way.
        (escrow,) = CoinAccount.objects.bulk_create(
            [CoinAccount(match_id=match_id, kind=CoinAccount.Kind.ESCROW)],
            update_conflicts=True,
            unique_fields=["match_id"],
            update_fields=["kind"],
        )
        _post(
            key=f"stake:{match_id}",
            kind=Kind.STAKE,
            match_id=match_id,
            legs=[
                *((wallets[stake.player.pk], -stake.amount) for stake in stakes),
                (escrow, sum(stake.amount for stake in stakes)),
            ],
        )


def _closed(match_id: int) -> CoinTransaction | None:
    return CoinTransaction.objects.filter(
        key__in=[f"settle:{match_id}", f"refund:{match_id}"]
    ).first()


def split_pot(pot: int, winners: int) -> list[int]:
    """Equal shares; an indivisible remainder goes one coin each to the earliest winners."""
    share, remainder = divmod(pot, winners)
    return [share + (1 if index < remainder else 0) for index in range(winners)]


def stake_outcome(*, stake: int, seats: int, winners: Sequence[int]) -> list[int]:
    """Each seat's coins won (+) or lost (−) when the pot of ``seats`` stakes goes to ``winners``
    (seat numbers, in the order that breaks remainders): what :func:`wallet_settle` pays, per
    seat, for the end-of-match screen."""
    outcome = [-stake] * seats
    if winners:
        for seat, share in zip(winners, split_pot(stake * seats, len(winners)), strict=True):
            outcome[seat] += share
    return outcome


def wallet_settle(*, match_id: int, winners: Sequence[Player]) -> CoinTransaction | None:
    """Pay the whole escrow to the winners (in the order that breaks remainders).

    Idempotent: once a match is settled or refunded, this changes nothing and returns the
    transaction that closed it.
    """
    if not winners:
        raise ValueError("A settlement needs at least one winner.")
    with transaction.atomic():
        escrow = CoinAccount.objects.filter(match_id=match_id).first()
        if escrow is None:
            return None  # a free table: nothing was staked
        wallets = [_wallet(player) for player in winners]
        locked = _lock([escrow.pk, *(wallet.pk for wallet in wallets)])
        closed = _closed(match_id)
        if closed is not None:
            return closed
        pot = locked[escrow.pk].balance
        if pot == 0:
            return None
        payouts: dict[int, int] = {}
        for wallet, share in zip(wallets, split_pot(pot, len(wallets)), strict=True):
            payouts[wallet.pk] = payouts.get(wallet.pk, 0) + share
        by_id = {wallet.pk: wallet for wallet in wallets}
        movement, _ = _post(
            key=f"settle:{match_id}",
            kind=Kind.PAYOUT,
            match_id=match_id,
            legs=[(escrow, -pot), *((by_id[pk], share) for pk, share in payouts.items())],
        )
    return movement


def wallet_refund(*, match_id: int) -> CoinTransaction | None:
    """Give every stake back (a cancelled or aborted match). Idempotent like settlement."""
    with transaction.atomic():
        escrow = CoinAccount.objects.filter(match_id=match_id).first()
        if escrow is None:
            return None
        staked = (
            LedgerEntry.objects.filter(transaction__match_id=match_id, transaction__kind=Kind.STAKE)
            .exclude(account=escrow)
            .values("account")
            .annotate(total=Sum("amount"))
        )
        returns = {row["account"]: -row["total"] for row in staked}
        locked = _lock([escrow.pk, *returns])
        closed = _closed(match_id)
        if closed is not None:
            return closed
        pot = locked[escrow.pk].balance
        if pot == 0:
            return None
        movement, _ = _post(
            key=f"refund:{match_id}",
            kind=Kind.REFUND,
            match_id=match_id,
            legs=[
                (locked[escrow.pk], -pot),
                *((locked[pk], amount) for pk, amount in returns.items()),
            ],
        )
    return movement
