"""Celery tasks: thin and idempotent, each one service call (docs/architecture.md § Tasks).

Each ends quietly when the database is unavailable (``core.outage``); its docstring says which
later run does its work instead.
"""

from celery import shared_task

from core.outage import ends_when_database_unavailable

from .services import moves, pools, presence, reveals, reviews
from .services.lobby import tables_expire


@shared_task
@ends_when_database_unavailable
def expire_idle_tables() -> int:
    """Every minute; a run the database missed is the next run's work."""
    return tables_expire()


# --- Live play (docs/protocol.md § Clocks, absence and forfeits) ------------------------------
# Each re-checks everything under the match lock, so a duplicate delivery, an early run or a
# run after the sweep changes nothing.


@shared_task
@ends_when_database_unavailable
def play_bot_turn(match_id: int, version: int) -> bool:
    """Enqueued after the commit that made it a computer seat's turn, with its short pause.

    Not retried when the database is away: the seat's turn clock is that pause, so the live
    sweep plays the move within a second of the database's return."""
    return moves.play_bot_turn(match_id=match_id, version=version)


@shared_task
@ends_when_database_unavailable
def live_sweep() -> dict[str, int]:
    """Every LIVE_SWEEP_SECONDS: due turns, emptied absence banks, dead servers' sockets, and
    full tables waiting for their seats' values for the deal. A run the database missed is the
    next one's work, a second later."""
    counts = presence.live_sweep()
    counts["dealt"] = reveals.reveals_sweep()
    return counts


@shared_task
@ends_when_database_unavailable
def pools_sweep() -> dict[str, int]:
    """Every POOL_SWEEP_SECONDS: quick play's pairing in every pool with someone waiting, and
    the paired tables nobody completed in time. A run the database missed is the next one's
    work, a second later."""
    return pools.pools_sweep()


@shared_task
@ends_when_database_unavailable
def review_match(review_id: int) -> bool:
    """A player asked for the review of a seat's play (docs/review.md): low priority, pure CPU in
    a process of its own. Safe to run twice."""
    return reviews.review_run(review_id)


@shared_task
@ends_when_database_unavailable
def reviews_sweep() -> int:
    """Every REVIEW_SWEEP_SECONDS: the reviews whose task was lost."""
    return reviews.reviews_sweep()
