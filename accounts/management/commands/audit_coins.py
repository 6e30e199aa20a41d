from django.core.management.base import BaseCommand, CommandError

from accounts.selectors import coin_audit


class Command(BaseCommand):
    help = "Check the Domino Coin ledger; exits non-zero on any violation."

    def handle(self, *args: object, **options: object) -> None:
        audit = coin_audit()
        self.stdout.write(f"transactions: {audit.transactions}")
        self.stdout.write(f"issued:       {audit.issued}")
        self.stdout.write(f"in wallets:   {audit.in_wallets}")
        self.stdout.write(f"in escrow:    {audit.in_escrow}")
        if audit.ok:
            self.stdout.write(self.style.SUCCESS("Ledger OK: wallets + escrow = coins issued."))
            return
        for violation in audit.violations:
            self.stderr.write(f"VIOLATION: {violation}")
        raise CommandError(f"{len(audit.violations)} violation(s) in the Domino Coin ledger.")
