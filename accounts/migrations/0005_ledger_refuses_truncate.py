"""On PostgreSQL the ledger refuses TRUNCATE too (row triggers never see it): a statement-level
trigger raises unless the session set ``joker.ledger_truncate`` to ``allowed``, which only the
test suite's connections do, so that Django can empty the test database between tests."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION coin_ledger_refuses_truncate() RETURNS trigger AS $$
BEGIN
    IF current_setting('joker.ledger_truncate', true) = 'allowed' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'Domino Coin ledger rows cannot be truncated (table %)', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER ledgerentry_no_truncate BEFORE TRUNCATE ON accounts_ledgerentry
    FOR EACH STATEMENT EXECUTE FUNCTION coin_ledger_refuses_truncate();
CREATE TRIGGER cointransaction_no_truncate BEFORE TRUNCATE ON accounts_cointransaction
    FOR EACH STATEMENT EXECUTE FUNCTION coin_ledger_refuses_truncate();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS ledgerentry_no_truncate ON accounts_ledgerentry;
DROP TRIGGER IF EXISTS cointransaction_no_truncate ON accounts_cointransaction;
DROP FUNCTION IF EXISTS coin_ledger_refuses_truncate();
"""


def _on_postgres(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_player_last_seen")]

    operations = [migrations.RunPython(_on_postgres(FORWARD), _on_postgres(BACKWARD))]
