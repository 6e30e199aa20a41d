"""Celery tasks of the ladder: thin and idempotent, each one service call (STYLE.md § 11).

``rate_match`` is enqueued by name (``settings.MATCH_FINISHED_TASKS``) after the commit that
finished a match; ``rate_unrated_matches`` is the beat's sweep for the tasks that were lost.
"""

from celery import shared_task

from . import services


@shared_task
def rate_match(match_id: int) -> int:
    """Rate one finished match; run twice (or beside the sweep), it changes nothing again."""
    return len(services.match_rate(match_id=match_id))


@shared_task
def rate_unrated_matches() -> int:
    """Every LADDER_SWEEP_SECONDS: rate the finished rated matches whose task was lost."""
    return services.matches_rate_unrated()
