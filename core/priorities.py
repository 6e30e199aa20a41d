"""How soon each Celery task must run. Redis's broker keeps a list per priority and a worker takes
from the lowest number first (the SQLite broker of the embedded default ignores it: there the
order is the enqueue order, as before). The settings route each task to its priority
(``CELERY_TASK_ROUTES``).

A burst of match ends in an arena enqueued a rating, a count and a pass for each match, in that
order; the passes, which players wait on, queued behind every rating (p99 match end → next
pairing 3.7–7.0 s with 500 players). The live path comes first; what a person does not wait on
comes after it and is caught up when the burst is over.
"""

# A player waits on it: a computer's move, the live and pool sweeps, an arena's pairing, the
# tournaments' tick. (Celery's default: a task routed nowhere is live.)
LIVE = 0
# Seen within seconds, not waited on: a tournament table's count and the standings it changes.
STANDINGS = 3
# A match's rating: the ladder and the player's page show it, nobody waits at a table for it.
RATING = 6
# Sweeps that catch what was lost, and housekeeping.
CHORES = 9

BY_TASK = {
    "tournaments.tasks.count_table": STANDINGS,
    "tournaments.tasks.standings_held": STANDINGS,
    "ladder.tasks.rate_match": RATING,
    "ladder.tasks.rate_unrated_matches": CHORES,
    "ladder.tasks.close_seasons": CHORES,
    "games.tasks.expire_idle_tables": CHORES,
    # A review of a player's decisions: a minute of CPU nobody waits on at a table.
    "games.tasks.review_match": CHORES,
    "games.tasks.reviews_sweep": CHORES,
    "accounts.tasks.clear_expired_sessions": CHORES,
}


def task_routes() -> dict[str, dict[str, int]]:
    """Celery's ``task_routes``: each task that is not live, to its priority."""
    return {name: {"priority": priority} for name, priority in BY_TASK.items()}
