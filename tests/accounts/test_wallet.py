"""Domino Coin: grants, stakes, settlement, refunds, the page, the admin and the audit (issue 4)."""

from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.test import Client

from accounts import services
from accounts.models import CoinAccount, CoinTransaction, LedgerEntry
from accounts.selectors import coin_audit, wallet_of
from accounts.services import InsufficientCoins, Stake
from core.errors import ServiceError
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 29)


def balance(player) -> int:
    return CoinAccount.objects.get(player=player).balance


def ledger_snapshot() -> tuple:
    return (
        list(CoinAccount.objects.values_list("pk", "balance").order_by("pk")),
        CoinTransaction.objects.count(),
        LedgerEntry.objects.count(),
    )


def stake_two(match_id, first, second, amount=100):
    services.wallet_stake(
        match_id=match_id,
        stakes=[
            Stake(seat=0, player=first, amount=amount),
            Stake(seat=1, player=second, amount=amount),
        ],
    )


def set_balance(player, target: int) -> None:
    """Bring a wallet to ``target`` the honest way: an admin adjustment in the ledger."""
    wallet = wallet_of(player)
    services.wallet_admin_adjust(
        wallet=wallet,
        amount=target - wallet.balance,
        reason="test set-up",
        admin=None,
        key=f"test:{player.pk}:{target}:{wallet.balance}",
    )


# --- Grants ------------------------------------------------------------------------------------


def test_signup_grants_1000_coins_once(alice):
    assert balance(alice) == 1000
    services.wallet_open(player=alice)
    assert balance(alice) == 1000
    assert CoinTransaction.objects.filter(key=f"grant:signup:{alice.pk}").count() == 1
    assert coin_audit().ok


def test_a_guest_has_no_wallet_and_gets_one_with_the_grant_on_signup(guest_client, guest):
    assert wallet_of(guest) is None
    with pytest.raises(ServiceError, match="Guests have no Domino Coin wallet"):
        services.wallet_open(player=guest)
    guest_client.post(
        "/accounts/signup/",
        {
            "username": "nino",
            "email": "n@example.com",
            "password1": "tbilisi-joker-77",
            "password2": "tbilisi-joker-77",
        },
    )
    guest.refresh_from_db()
    assert balance(guest) == 1000


def test_daily_top_up_only_below_the_threshold_and_once_a_day(alice, settings):
    before = ledger_snapshot()
    with pytest.raises(ServiceError, match="below 250 coins; you have 1000"):
        services.wallet_claim_daily(player=alice, today=TODAY)
    assert ledger_snapshot() == before
    set_balance(alice, 100)
    services.wallet_claim_daily(player=alice, today=TODAY)
    assert balance(alice) == 350
    set_balance(alice, 10)
    with pytest.raises(ServiceError, match="already claimed today’s top-up"):
        services.wallet_claim_daily(player=alice, today=TODAY)
    services.wallet_claim_daily(player=alice, today=TODAY + datetime.timedelta(days=1))
    assert balance(alice) == 260
    assert coin_audit().ok


def test_guests_cannot_claim_a_top_up(guest):
    with pytest.raises(ServiceError, match="Guests have no Domino Coin wallet"):
        services.wallet_claim_daily(player=guest, today=TODAY)


def test_admin_adjustments_need_a_reason_and_cannot_overdraw(alice):
    wallet = wallet_of(alice)
    before = ledger_snapshot()
    with pytest.raises(ServiceError, match="Give a reason"):
        services.wallet_admin_adjust(wallet=wallet, amount=5, reason="  ", admin=None, key="k1")
    with pytest.raises(InsufficientCoins):
        services.wallet_admin_adjust(wallet=wallet, amount=-1001, reason="x", admin=None, key="k2")
    assert ledger_snapshot() == before
    services.wallet_admin_adjust(
        wallet=wallet, amount=-1000, reason="cheating", admin=None, key="k3"
    )
    services.wallet_admin_adjust(
        wallet=wallet, amount=-1000, reason="cheating", admin=None, key="k3"
    )  # a repeated submit is a no-op
    assert balance(alice) == 0
    assert coin_audit().ok


# --- Stakes, settlement, refunds ---------------------------------------------------------------


def test_stakes_move_into_escrow_and_the_winner_takes_the_pot(alice, bob):
    stake_two(7, alice, bob)
    assert (balance(alice), balance(bob)) == (900, 900)
    assert CoinAccount.objects.get(match_id=7).balance == 200
    services.wallet_settle(match_id=7, winners=[bob])
    assert (balance(alice), balance(bob)) == (900, 1100)
    assert CoinAccount.objects.get(match_id=7).balance == 0
    assert coin_audit().ok


def test_a_matchs_stakes_are_one_transaction_with_a_line_per_seat_and_the_escrows(
    alice, bob, carol
):
    services.wallet_stake(
        match_id=8, stakes=[Stake(0, alice, 30), Stake(1, bob, 30), Stake(2, carol, 30)]
    )
    (movement,) = CoinTransaction.objects.filter(match_id=8)
    assert (movement.key, movement.kind) == ("stake:8", CoinTransaction.Kind.STAKE)
    lines = {entry.account_id: entry.amount for entry in movement.entries.all()}
    escrow = CoinAccount.objects.get(match_id=8)
    assert lines == {
        wallet_of(alice).pk: -30,
        wallet_of(bob).pk: -30,
        wallet_of(carol).pk: -30,
        escrow.pk: 90,
    }
    assert escrow.balance == 90
    assert coin_audit().ok


def test_a_match_staked_a_transaction_a_seat_before_december_refunds_the_same(alice, bob):
    """The ledger keeps the older matches' ``stake:<match>:<seat>`` transactions: a refund or a
    settlement reads the stakes by kind, whatever their keys."""
    escrow = CoinAccount.objects.create(match_id=6, kind=CoinAccount.Kind.ESCROW)
    for seat, player in enumerate((alice, bob)):
        services.wallet._post(
            key=f"stake:6:{seat}",
            kind=CoinTransaction.Kind.STAKE,
            match_id=6,
            legs=[(wallet_of(player), -100), (escrow, 100)],
        )
    assert (balance(alice), balance(bob)) == (900, 900)
    services.wallet_refund(match_id=6)
    assert (balance(alice), balance(bob)) == (1000, 1000)
    assert coin_audit().ok


def test_staking_twice_takes_the_stake_once(alice, bob):
    stake_two(7, alice, bob)
    stake_two(7, alice, bob)
    assert (balance(alice), balance(bob)) == (900, 900)


def test_settling_twice_and_forfeit_after_settlement_change_nothing(alice, bob):
    stake_two(7, alice, bob)
    first = services.wallet_settle(match_id=7, winners=[alice])
    before = ledger_snapshot()
    assert services.wallet_settle(match_id=7, winners=[alice]) == first
    assert services.wallet_settle(match_id=7, winners=[bob]) == first  # a late forfeit
    assert services.wallet_refund(match_id=7) == first
    assert ledger_snapshot() == before
    assert balance(alice) == 1100


def test_refund_returns_every_stake_once_and_blocks_a_later_settlement(alice, bob, carol, dave):
    services.wallet_stake(
        match_id=9,
        stakes=[
            Stake(0, alice, 250),
            Stake(1, bob, 250),
            Stake(2, carol, 250),
            Stake(3, dave, 250),
        ],
    )
    refund = services.wallet_refund(match_id=9)
    before = ledger_snapshot()
    assert services.wallet_refund(match_id=9) == refund
    assert services.wallet_settle(match_id=9, winners=[alice]) == refund
    assert ledger_snapshot() == before
    assert [balance(p) for p in (alice, bob, carol, dave)] == [1000] * 4
    assert coin_audit().ok


def test_a_stake_nobody_can_cover_blocks_the_whole_start(alice, bob):
    set_balance(bob, 40)
    before = ledger_snapshot()
    with pytest.raises(InsufficientCoins, match="bob has 40 coins, 50 needed") as caught:
        stake_two(11, alice, bob, amount=50)
    assert caught.value.player == bob
    # Nothing moved, Alice's line with the rest: one transaction, all or nothing.
    assert ledger_snapshot() == before


def test_a_guest_cannot_stake(alice, guest):
    with pytest.raises(ServiceError, match="Guests have no Domino Coin wallet"):
        stake_two(12, alice, guest)
    assert balance(alice) == 1000


def test_equal_top_scores_split_the_pot_and_the_remainder_goes_by_seat_order(
    alice, bob, carol, dave
):
    services.wallet_stake(
        match_id=5,
        stakes=[Stake(0, alice, 25), Stake(1, bob, 25), Stake(2, carol, 25), Stake(3, dave, 25)],
    )
    # Three share first place: 100 = 34 + 33 + 33, the extra coin to the earliest in seat order.
    services.wallet_settle(match_id=5, winners=[bob, carol, dave])
    assert [balance(p) for p in (alice, bob, carol, dave)] == [975, 1009, 1008, 1008]
    assert coin_audit().ok


def test_split_pot_is_exact():
    assert services.split_pot(100, 3) == [34, 33, 33]
    assert services.split_pot(200, 2) == [100, 100]
    assert services.split_pot(1000, 4) == [250] * 4
    assert sum(services.split_pot(101, 4)) == 101


def test_stake_outcome_is_what_the_settlement_pays_per_seat():
    assert services.stake_outcome(stake=25, seats=2, winners=[1]) == [-25, 25]
    # Classic Joker: 4 × 25 shared by seats 2 and 0, the remainder to the first named.
    assert services.stake_outcome(stake=25, seats=4, winners=[2, 0]) == [25, -25, 25, -25]
    assert services.stake_outcome(stake=25, seats=4, winners=[3, 1, 2]) == [-25, 8, 8, 9]
    assert services.stake_outcome(stake=10, seats=2, winners=[]) == [-10, -10]


def test_settling_or_refunding_a_free_match_does_nothing(alice):
    assert services.wallet_settle(match_id=404, winners=[alice]) is None
    assert services.wallet_refund(match_id=404) is None


# --- Immutability and the audit ---------------------------------------------------------------


def test_ledger_entries_cannot_be_changed_or_deleted(alice):
    entry = LedgerEntry.objects.first()
    entry.amount = 5
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        LedgerEntry.objects.all().update(amount=1)
    with pytest.raises(PermissionError):
        CoinTransaction.objects.all().delete()


def test_the_database_refuses_a_negative_wallet(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        CoinAccount.objects.filter(player=alice).update(balance=-1)


@pytest.mark.postgres
def test_postgres_refuses_raw_sql_that_edits_the_ledger(alice):
    with (
        pytest.raises(Exception, match="cannot be changed or deleted"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE accounts_ledgerentry SET amount = amount + 1")
    with (
        pytest.raises(Exception, match="cannot be changed or deleted"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM accounts_ledgerentry")


def test_audit_command_prints_totals_and_passes(alice, bob):
    stake_two(3, alice, bob)
    out = io.StringIO()
    call_command("audit_coins", stdout=out)
    text = out.getvalue()
    assert "issued:       2000" in text
    assert "in wallets:   1800" in text
    assert "in escrow:    200" in text
    assert "Ledger OK" in text


def test_audit_command_fails_on_a_tampered_balance(alice):
    CoinAccount.objects.filter(player=alice).update(balance=5000)  # what a bad migration might do
    err = io.StringIO()
    with pytest.raises(CommandError, match="violation"):
        call_command("audit_coins", stdout=io.StringIO(), stderr=err)
    assert "cached balance 5000 but entries sum to 1000" in err.getvalue()


# --- Pages and admin --------------------------------------------------------------------------


def test_wallet_page_shows_balance_top_up_and_paginated_history(alice, bob):
    for match_id in range(30):
        stake_two(match_id + 100, alice, bob, amount=25)
        services.wallet_settle(match_id=match_id + 100, winners=[alice])
    client = client_for(alice)
    page = client.get("/wallet/")
    assert page.status_code == 200
    assert page.context["wallet"].balance == 1750
    assert 'id="nav-balance">1750<' in page.content.decode()
    assert len(page.context["page"].object_list) == 25
    assert "#129" in page.content.decode()
    older = client.get("/wallet/?page=3")
    assert older.context["page"].number == 3
    assert "Sign-up grant" in older.content.decode()
    assert client.get("/wallet/?page=banana").status_code == 200


def test_top_up_button_and_its_refusals(alice):
    client = client_for(alice)
    response = client.post("/wallet/top-up/", follow=True)
    assert "below 250 coins" in response.content.decode()
    set_balance(alice, 0)
    assert client.get("/wallet/").context["can_claim"]
    response = client.post("/wallet/top-up/", follow=True)
    assert "250 coins added to your wallet." in response.content.decode()
    assert balance(alice) == 250
    assert not client.get("/wallet/").context["can_claim"]


def test_guest_sees_why_there_is_no_wallet(guest_client):
    page = guest_client.get("/wallet/")
    assert "Guests have no wallet" in page.content.decode()
    assert guest_client.post("/wallet/top-up/").status_code == 302
    assert not CoinTransaction.objects.exists()


def _admin_client() -> Client:
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-boss-123")
    client = Client()
    client.force_login(admin)
    client.get("/admin/")  # the admin's own player (and wallet) is made on the first page
    return client


def test_admin_action_grants_with_a_reason_and_a_double_submit_is_one_grant(alice, bob):
    client = _admin_client()
    wallets = [wallet_of(alice).pk, wallet_of(bob).pk]
    form = client.post(
        "/admin/accounts/coinaccount/", {"action": "grant_or_deduct", "_selected_action": wallets}
    )
    assert form.status_code == 200
    key = form.context["form"].initial["key"]
    data = {
        "action": "grant_or_deduct",
        "_selected_action": wallets,
        "apply": "1",
        "amount": "500",
        "reason": "tournament prize",
        "key": key,
    }
    client.post("/admin/accounts/coinaccount/", data)
    client.post("/admin/accounts/coinaccount/", data)
    assert (balance(alice), balance(bob)) == (1500, 1500)
    grant = CoinTransaction.objects.filter(kind="admin_grant").first()
    assert grant.reason == "tournament prize" and grant.created_by.username == "boss"
    assert coin_audit().ok


def test_admin_action_refuses_zero_and_missing_reason(alice):
    client = _admin_client()
    before = ledger_snapshot()
    response = client.post(
        "/admin/accounts/coinaccount/",
        {
            "action": "grant_or_deduct",
            "_selected_action": [wallet_of(alice).pk],
            "apply": "1",
            "amount": "0",
            "reason": "",
            "key": "abc",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors.keys() == {"amount", "reason"}
    assert ledger_snapshot() == before


def test_admin_cannot_edit_or_delete_ledger_rows(alice):
    client = _admin_client()
    wallet = wallet_of(alice)
    entry = LedgerEntry.objects.first()
    assert client.get(f"/admin/accounts/coinaccount/{wallet.pk}/change/").status_code == 200
    before = ledger_snapshot()
    client.post(f"/admin/accounts/coinaccount/{wallet.pk}/change/", {"balance": "99999"})
    client.post(f"/admin/accounts/ledgerentry/{entry.pk}/delete/", {"post": "yes"})
    client.post("/admin/accounts/coinaccount/add/", {"kind": "wallet", "balance": "5"})
    assert ledger_snapshot() == before
    for url in [
        "/admin/accounts/coinaccount/",
        "/admin/accounts/cointransaction/",
        "/admin/accounts/ledgerentry/",
        "/admin/accounts/ledgerentry/?transaction__kind=stake",
        f"/admin/accounts/cointransaction/{entry.transaction_id}/change/",
    ]:
        assert client.get(url).status_code == 200
