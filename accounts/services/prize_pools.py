"""Prize pools: entry fees held in the ledger until the prizes are paid or the entries refunded
(docs/architecture.md § How a coin travels).

A pool is named by the app that holds it (``pool_key``, e.g. ``"tournament:42"``); every
movement is a zero-sum transaction with a key derived from the pool and the entry, so a retried
task or a double click moves nothing twice; its reason is the ``label`` the wallet page shows
(the event's name). Once the pool is paid or refunded in full it is
closed: paying or refunding it again returns the transaction that closed it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum

from ..models import CoinAccount, CoinTransaction, LedgerEntry, Player
from .wallet import _lock, _post, _wallet

Kind = CoinTransaction.Kind


def _pool(pool_key: str) -> CoinAccount:
    account = CoinAccount.objects.filter(pool_key=pool_key).first()
    if account is not None:
        return account
    try:
        with transaction.atomic():
            return CoinAccount.objects.create(kind=CoinAccount.Kind.PRIZE, pool_key=pool_key)
    except IntegrityError:  # another process opened it first
        return CoinAccount.objects.get(pool_key=pool_key)


def _closing_keys(pool_key: str) -> list[str]:
    return [f"prizes:{pool_key}", f"pool-refund:{pool_key}"]


def _closed(pool_key: str) -> CoinTransaction | None:
    return CoinTransaction.objects.filter(key__in=_closing_keys(pool_key)).first()


def pool_balance(pool_key: str) -> int:
    """What the pool holds now (0 for a pool never paid into)."""
    account = CoinAccount.objects.filter(pool_key=pool_key).first()
    return account.balance if account is not None else 0


def wallet_pool_enter(
    *, pool_key: str, player: Player, amount: int, entry: str, label: str = ""
) -> CoinTransaction | None:
    """The player's entry fee into the pool; raises ``InsufficientCoins`` and moves nothing
    when the wallet cannot cover it. ``entry`` names this entry within the pool (a player who
    leaves and enters again is a new entry)."""
    if amount <= 0:
        return None
    with transaction.atomic():
        pool, wallet = _pool(pool_key), _wallet(player)
        _lock([pool.pk, wallet.pk])
        if _closed(pool_key) is not None:
            raise ValueError(f"The prize pool {pool_key} is closed.")
        movement, _ = _post(
            key=f"entry:{pool_key}:{entry}",
            kind=Kind.ENTRY_FEE,
            reason=label or pool_key,
            legs=[(wallet, -amount), (pool, amount)],
        )
    return movement


def wallet_pool_refund_entry(
    *, pool_key: str, player: Player, entry: str, label: str = ""
) -> CoinTransaction | None:
    """One entry's fee back (a player leaving before the start); once only."""
    with transaction.atomic():
        paid = CoinTransaction.objects.filter(key=f"entry:{pool_key}:{entry}").first()
        if paid is None:
            return None
        pool, wallet = _pool(pool_key), _wallet(player)
        _lock([pool.pk, wallet.pk])
        if _closed(pool_key) is not None:
            raise ValueError(f"The prize pool {pool_key} is closed.")
        amount = -paid.entries.get(account=wallet).amount
        movement, _ = _post(
            key=f"entry-refund:{pool_key}:{entry}",
            kind=Kind.ENTRY_REFUND,
            reason=label or pool_key,
            legs=[(pool, -amount), (wallet, amount)],
        )
    return movement


def wallet_pool_pay(
    *, pool_key: str, prizes: Sequence[tuple[Player, int]], label: str = ""
) -> CoinTransaction | None:
    """Pay the prizes; they must add up to what the pool holds (the caller splits it). Once
    only: a second call returns the transaction that closed the pool."""
    with transaction.atomic():
        pool = _pool(pool_key)
        wallets = {player.pk: _wallet(player) for player, _amount in prizes}
        locked = _lock([pool.pk, *(wallet.pk for wallet in wallets.values())])
        closed = _closed(pool_key)
        if closed is not None:
            return closed
        held = locked[pool.pk].balance
        if sum(amount for _player, amount in prizes) != held:
            raise ValueError(f"The prizes of {pool_key} do not add up to the pool's {held}.")
        if held == 0:
            return None
        totals: dict[int, int] = {}
        for player, amount in prizes:
            totals[player.pk] = totals.get(player.pk, 0) + amount
        movement, _ = _post(
            key=_closing_keys(pool_key)[0],
            kind=Kind.PRIZE,
            reason=label or pool_key,
            legs=[(pool, -held), *((wallets[pk], amount) for pk, amount in totals.items())],
        )
    return movement


def wallet_pool_refund(*, pool_key: str, label: str = "") -> CoinTransaction | None:
    """Every entry fee still in the pool back to whoever paid it (a cancelled event). Once
    only, like the prizes."""
    with transaction.atomic():
        pool = CoinAccount.objects.filter(pool_key=pool_key).first()
        if pool is None:
            return None
        owed = (
            LedgerEntry.objects.filter(
                Q(transaction__key__startswith=f"entry:{pool_key}:")
                | Q(transaction__key__startswith=f"entry-refund:{pool_key}:")
            )
            .exclude(account=pool)
            .values("account")
            .annotate(total=Sum("amount"))
        )
        returns = {row["account"]: -row["total"] for row in owed if row["total"]}
        locked = _lock([pool.pk, *returns])
        closed = _closed(pool_key)
        if closed is not None:
            return closed
        held = locked[pool.pk].balance
        if held == 0:
            return None
        movement, _ = _post(
            key=_closing_keys(pool_key)[1],
            kind=Kind.ENTRY_REFUND,
            reason=label or pool_key,
            legs=[
                (locked[pool.pk], -held),
                *((locked[pk], amount) for pk, amount in returns.items()),
            ],
        )
    return movement
