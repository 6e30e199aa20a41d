"""Domino Coin under concurrency, on PostgreSQL's real row locks (issue 4, acceptance)."""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from django.db import connection

from accounts import services
from accounts.models import CoinAccount, CoinTransaction
from accounts.selectors import coin_audit
from accounts.services import InsufficientCoins, Stake
from tests.support.players import make_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_threads(count: int, work) -> list[Exception]:
    errors: list[Exception] = []
    barrier = threading.Barrier(count)

    def runner(index: int) -> None:
        try:
            barrier.wait()
            work(index)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


@pytest.mark.slow
def test_200_matches_settled_concurrently_from_many_threads_settle_once_each():
    players = [make_player(f"p{i}") for i in range(20)]
    matches = {}
    for match_id in range(1, 201):
        # Round robin: each player sits in 20 matches, staking all 1,000 of their coins.
        seated = [players[match_id % 20], players[(match_id + 7) % 20]]
        services.wallet_stake(
            match_id=match_id, stakes=[Stake(0, seated[0], 50), Stake(1, seated[1], 50)]
        )
        matches[match_id] = seated

    def settle_all(thread_index: int) -> None:
        order = list(matches)
        random.Random(thread_index).shuffle(order)
        for match_id in order:
            # Threads disagree about the winner: whoever settles first decides, once.
            winner = matches[match_id][thread_index % 2]
            services.wallet_settle(match_id=match_id, winners=[winner])

    assert run_threads(6, settle_all) == []
    settles = Counter(
        CoinTransaction.objects.filter(kind="payout").values_list("match_id", flat=True)
    )
    assert set(settles) == set(matches) and set(settles.values()) == {1}
    assert not CoinAccount.objects.filter(kind="escrow").exclude(balance=0).exists()
    audit = coin_audit()
    assert audit.ok, audit.violations
    assert audit.in_wallets == audit.issued == 20 * 1000


def test_k_stakes_at_once_from_one_wallet_take_only_what_the_balance_covers():
    alice = make_player("alice")
    opponents = [make_player(f"o{i}") for i in range(12)]
    outcomes: list[str] = []

    def stake(index: int) -> None:
        try:
            services.wallet_stake(
                match_id=1000 + index,
                stakes=[Stake(0, alice, 100), Stake(1, opponents[index], 100)],
            )
            outcomes.append("staked")
        except InsufficientCoins:
            outcomes.append("refused")

    assert run_threads(12, stake) == []
    assert Counter(outcomes) == {"staked": 10, "refused": 2}
    assert CoinAccount.objects.get(player=alice).balance == 0
    assert CoinAccount.objects.filter(kind="escrow", balance=200).count() == 10
    audit = coin_audit()
    assert audit.ok, audit.violations


def test_settlement_racing_a_refund_closes_the_match_exactly_once():
    alice, bob = make_player("alice"), make_player("bob")
    for match_id in range(1, 31):
        services.wallet_stake(match_id=match_id, stakes=[Stake(0, alice, 25), Stake(1, bob, 25)])

    def close_all(index: int) -> None:
        for match_id in range(1, 31):
            if index % 2:
                services.wallet_refund(match_id=match_id)
            else:
                services.wallet_settle(match_id=match_id, winners=[alice])

    assert run_threads(4, close_all) == []
    closing = CoinTransaction.objects.filter(kind__in=["payout", "refund"])
    assert sorted(closing.values_list("match_id", flat=True)) == list(range(1, 31))
    assert coin_audit().ok
