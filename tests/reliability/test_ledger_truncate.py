"""Item 11: the Domino Coin ledger cannot be emptied with TRUNCATE on PostgreSQL.

UPDATE and DELETE were already refused by row triggers; TRUNCATE skips row triggers, so a
statement-level trigger refuses it too. The test runs its SQL on a connection of its own,
opened as the site opens one (the test settings let the suite's own connections flush).
"""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from accounts.models import CoinTransaction, LedgerEntry
from tests.support.players import make_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _site_connection() -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
    )


@pytest.mark.parametrize(
    "statement",
    [
        "TRUNCATE accounts_ledgerentry",
        "TRUNCATE accounts_cointransaction CASCADE",
        "TRUNCATE accounts_coinaccount CASCADE",
        "UPDATE accounts_ledgerentry SET amount = amount + 1",
        "DELETE FROM accounts_ledgerentry",
    ],
)
def test_raw_sql_cannot_empty_or_change_the_ledger(statement):
    """Pass: each statement raises a database error naming the ledger, and every entry and
    transaction is still there afterwards."""
    make_player("alice")  # the sign-up grant writes a transaction and two entries
    entries, transactions = LedgerEntry.objects.count(), CoinTransaction.objects.count()
    assert entries and transactions
    with _site_connection() as site, site.cursor() as cursor:
        with pytest.raises(psycopg.errors.RaiseException, match="ledger"):
            cursor.execute(statement)
        site.rollback()
    assert (LedgerEntry.objects.count(), CoinTransaction.objects.count()) == (
        entries,
        transactions,
    )
