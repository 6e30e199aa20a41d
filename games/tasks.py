"""Celery tasks: thin and idempotent, each one service call (STYLE.md § 11)."""

from celery import shared_task

from .services import moves, presence
from .services.tables import tables_expire


@shared_task
def expire_idle_tables() -> int:
    return tables_expire()


# --- Live play (docs/protocol.md § Clocks, absence and forfeits) ------------------------------
# Each re-checks everything under the match lock, so a duplicate delivery, an early run or a
# run after the sweep changes nothing.


@shared_task
def play_bot_turn(match_id: int, version: int) -> bool:
    """Enqueued after the commit that made it a computer seat's turn, with its short pause."""
    return moves.play_bot_turn(match_id=match_id, version=version)


@shared_task
def live_sweep() -> dict[str, int]:
    """Every LIVE_SWEEP_SECONDS: due turns, emptied absence banks, dead servers' sockets."""
    return presence.live_sweep()
