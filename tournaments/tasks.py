"""Celery tasks of tournaments: thin and idempotent, each one service call (docs/architecture.md
§ Tasks). A run the database missed is the next beat tick's work."""

from celery import shared_task

from core.outage import ends_when_database_unavailable

from .realtime import standings_held as standings_held_service
from .services.running import arena_pass as arena_pass_service
from .services.running import table_count
from .services.ticks import tournaments_tick


@shared_task
@ends_when_database_unavailable
def tick() -> dict[str, int]:
    """Every TOURNAMENT_TICK_SECONDS: starts, lost counts, arena pairings, Swiss rounds, ends."""
    return tournaments_tick()


@shared_task
@ends_when_database_unavailable
def count_table(link_id: int) -> bool:
    """Enqueued after the commit that ended a tournament table's match."""
    return table_count(link_id=link_id)


@shared_task
@ends_when_database_unavailable
def standings_held(tournament_id: int) -> bool:
    """Enqueued when a change came within the standings' pause: said once the pause is over."""
    return standings_held_service(tournament_id)


@shared_task
@ends_when_database_unavailable
def arena_pass(tournament_id: int) -> int:
    """Enqueued after the commit that ended an arena's match: its players paired again."""
    return len(arena_pass_service(tournament_id=tournament_id))
