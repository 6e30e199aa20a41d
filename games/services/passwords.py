"""Password tables: the guess budgets that keep a table's password from being guessed."""

from __future__ import annotations

from django.contrib.auth.hashers import check_password
from django.core.cache import cache
from django.utils.translation import gettext

from accounts.models import Player
from core.errors import ServiceError

from ..models import Table

MIN_PASSWORD_LENGTH = 4
# Wrong passwords for one table before a pause of PASSWORD_PAUSE_SECONDS: per player, per
# client address (fresh guest sessions cost nothing) and for the table as a whole (addresses
# cost little), so a table's password cannot be guessed faster than the table's own budget.
PASSWORD_ATTEMPTS = 5
PASSWORD_ATTEMPTS_PER_ADDRESS = 10
PASSWORD_ATTEMPTS_PER_TABLE = 20
PASSWORD_PAUSE_SECONDS = 300


def _password_budgets(table: Table, player: Player, client_ip: str | None) -> list[tuple[str, int]]:
    budgets = [
        (f"table-password:{table.pk}:player:{player.pk}", PASSWORD_ATTEMPTS),
        (f"table-password:{table.pk}:all", PASSWORD_ATTEMPTS_PER_TABLE),
    ]
    if client_ip:
        budgets.append((f"table-password:{table.pk}:ip:{client_ip}", PASSWORD_ATTEMPTS_PER_ADDRESS))
    return budgets


def count_failure(key: str) -> None:
    """One more wrong guess against a budget (shared with tournament passwords)."""
    cache.add(key, 0, PASSWORD_PAUSE_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, PASSWORD_PAUSE_SECONDS)


def password_check(table: Table, player: Player, password: str, client_ip: str | None) -> None:
    """Refuse a wrong password, and any guess once a budget for this table is spent."""
    budgets = _password_budgets(table, player, client_ip)
    if any(cache.get(key, 0) >= limit for key, limit in budgets):
        raise ServiceError(
            gettext("Too many wrong passwords for this table. Try again in a few minutes."),
            code="password_rate_limited",
        )
    if not password or not check_password(password, table.password_hash):
        for key, _limit in budgets:
            count_failure(key)
        raise ServiceError(gettext("Wrong password for this table."), code="wrong_password")
    # Only the player's own count is forgiven: the table's and the address's are an attacker's
    # budget, which a right guess by somebody else must not refill.
    cache.delete(budgets[0][0])
