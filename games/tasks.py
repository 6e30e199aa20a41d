"""Celery tasks: thin and idempotent, each one service call (STYLE.md § 11)."""

from celery import shared_task

from .services import play
from .services.lobby import tables_expire


@shared_task
def expire_idle_tables() -> int:
    return tables_expire()


# --- Live play (docs/protocol.md § Clocks, absence and forfeits) ------------------------------
# Each is enqueued after commit with the deadline as its ETA and re-checks everything under the
# match lock, so a duplicate delivery, an early run or a run after the sweep changes nothing.


@shared_task
def forfeit_absent_seat(match_id: int, seat: int) -> bool:
    return play.forfeit_absent_seat(match_id=match_id, seat=seat)


@shared_task
def play_due_turn(match_id: int, version: int) -> bool:
    return play.play_due_turn(match_id=match_id, version=version)


@shared_task
def live_sweep() -> dict[str, int]:
    return play.live_sweep()
