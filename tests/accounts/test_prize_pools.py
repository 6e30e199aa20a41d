"""Prize pools (issue 29 § 2): entry fees held in the ledger, paid out by place once, refunded
once when the event is cancelled; every movement a ledger entry, the audit clean."""

from __future__ import annotations

import pytest

from accounts import services
from accounts.models import CoinAccount, CoinTransaction
from accounts.selectors import coin_audit
from accounts.services import InsufficientCoins

pytestmark = pytest.mark.django_db

POOL = "tournament:7"


def balance(player) -> int:
    return CoinAccount.objects.get(player=player).balance


def test_entry_fees_wait_in_the_pool_and_the_prizes_pay_it_out_once(alice, bob, carol):
    for player in (alice, bob, carol):
        services.wallet_pool_enter(pool_key=POOL, player=player, amount=100, entry=str(player.pk))
    assert services.pool_balance(POOL) == 300
    assert balance(alice) == balance(bob) == balance(carol) == 900
    prizes = [(alice, 150), (bob, 90), (carol, 60)]
    first = services.wallet_pool_pay(pool_key=POOL, prizes=prizes)
    again = services.wallet_pool_pay(pool_key=POOL, prizes=prizes)  # a task run twice
    assert first is not None and again == first
    assert (balance(alice), balance(bob), balance(carol)) == (1050, 990, 960)
    assert services.pool_balance(POOL) == 0
    assert coin_audit().ok
    # A closed pool takes no more entries and refunds nothing.
    with pytest.raises(ValueError):
        services.wallet_pool_enter(pool_key=POOL, player=alice, amount=100, entry="late")
    assert services.wallet_pool_refund(pool_key=POOL) == first


def test_an_entry_is_taken_once_and_a_wallet_that_cannot_cover_it_pays_nothing(alice, bob):
    services.wallet_pool_enter(pool_key=POOL, player=alice, amount=100, entry="a")
    services.wallet_pool_enter(pool_key=POOL, player=alice, amount=100, entry="a")  # retried
    assert balance(alice) == 900
    with pytest.raises(InsufficientCoins):
        services.wallet_pool_enter(pool_key=POOL, player=bob, amount=5000, entry="b")
    assert balance(bob) == 1000 and services.pool_balance(POOL) == 100
    assert coin_audit().ok


def test_prizes_that_do_not_add_up_to_the_pool_are_refused_and_move_nothing(alice, bob):
    services.wallet_pool_enter(pool_key=POOL, player=alice, amount=100, entry="a")
    services.wallet_pool_enter(pool_key=POOL, player=bob, amount=100, entry="b")
    with pytest.raises(ValueError):
        services.wallet_pool_pay(pool_key=POOL, prizes=[(alice, 150)])
    assert services.pool_balance(POOL) == 200 and balance(alice) == 900


def test_leaving_before_the_start_refunds_that_entry_once(alice, bob):
    services.wallet_pool_enter(pool_key=POOL, player=alice, amount=100, entry="a1")
    services.wallet_pool_enter(pool_key=POOL, player=bob, amount=100, entry="b1")
    services.wallet_pool_refund_entry(pool_key=POOL, player=alice, entry="a1")
    services.wallet_pool_refund_entry(pool_key=POOL, player=alice, entry="a1")
    assert balance(alice) == 1000 and services.pool_balance(POOL) == 100
    # Back in again, then the event is cancelled: each gets back what is still theirs, once.
    services.wallet_pool_enter(pool_key=POOL, player=alice, amount=100, entry="a2")
    refund = services.wallet_pool_refund(pool_key=POOL)
    assert services.wallet_pool_refund(pool_key=POOL) == refund
    assert balance(alice) == balance(bob) == 1000
    assert services.pool_balance(POOL) == 0
    kinds = set(CoinTransaction.objects.values_list("kind", flat=True))
    assert {"entry_fee", "entry_refund"} <= kinds
    assert coin_audit().ok


def test_a_free_event_never_opens_a_pool(alice):
    assert services.wallet_pool_enter(pool_key=POOL, player=alice, amount=0, entry="a") is None
    assert services.wallet_pool_refund(pool_key=POOL) is None
    assert not CoinAccount.objects.filter(pool_key=POOL).exists()
