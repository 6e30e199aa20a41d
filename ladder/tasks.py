"""Celery tasks of the ladder: thin and idempotent, each one service call (docs/architecture.md
§ Tasks).

``rate_match`` is enqueued by name (``settings.MATCH_FINISHED_TASKS``) after the commit that
finished a match; ``rate_unrated_matches`` is the beat's sweep for the tasks that were lost;
``close_seasons`` is the beat's close of the seasons that ended. All end quietly when the
database is unavailable (``core.outage``).
"""

from celery import shared_task

from core.outage import ends_when_database_unavailable

from . import season_services, services


@shared_task
@ends_when_database_unavailable
def rate_match(match_id: int) -> int:
    """Rate one finished match; run twice (or beside the sweep), it changes nothing again.

    Not retried when the database is away: the match stays finished and unrated, which is what
    the sweep rates, within LADDER_SWEEP_SECONDS of the database's return."""
    return len(services.match_rate(match_id=match_id))


@shared_task
@ends_when_database_unavailable
def rate_unrated_matches() -> int:
    """Every LADDER_SWEEP_SECONDS: rate the finished rated matches whose task was lost. A run
    the database missed is the next one's work."""
    return services.matches_rate_unrated()


@shared_task
@ends_when_database_unavailable
def close_seasons() -> int:
    """Every LADDER_SEASON_CLOSE_SECONDS: open each game's first season and close every season
    that ended, its standings kept once (run twice or on two workers, the second closes none).
    A run the database missed is the next one's work. Returns how many seasons it closed."""
    return len(season_services.seasons_close())
