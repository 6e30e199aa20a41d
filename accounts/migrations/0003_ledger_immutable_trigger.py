"""On PostgreSQL the ledger is append-only at the database too: UPDATE and DELETE raise."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION coin_ledger_is_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'Domino Coin ledger rows cannot be changed or deleted (table %)', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER ledgerentry_append_only BEFORE UPDATE OR DELETE ON accounts_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION coin_ledger_is_append_only();
CREATE TRIGGER cointransaction_append_only BEFORE UPDATE OR DELETE ON accounts_cointransaction
    FOR EACH ROW EXECUTE FUNCTION coin_ledger_is_append_only();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS ledgerentry_append_only ON accounts_ledgerentry;
DROP TRIGGER IF EXISTS cointransaction_append_only ON accounts_cointransaction;
DROP FUNCTION IF EXISTS coin_ledger_is_append_only();
"""


def _on_postgres(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_domino_coin")]

    operations = [migrations.RunPython(_on_postgres(FORWARD), _on_postgres(BACKWARD))]
