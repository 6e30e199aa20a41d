"""Issue 29's acceptance, end to end: an arena of 24 players against the whole site as ``make
run`` serves it on PostgreSQL and Redis (``scripts/serve.py``: two Daphnes, a Celery worker and
Celery beat, whose tick starts the event, pairs it and ends it), each player a websocket client
of docs/protocol.md (``tests/support/arena_crowd.py``) that plays every match it is sent to.
Here with the site left alone; test_arena_crowd_killed.py runs the same with the worker killed
(SIGKILL) in the middle of the event and started again by serve.py (two files, so that the
suite's two workers run them at the same time).

Afterwards: the event ended and paid its prizes once, every match at its tables ended and every
finished one was rated exactly once, the standings equal a recomputation from the result rows,
the result rows are exactly the finished matches' seats, no player sat at two tables at once,
``audit_coins`` is clean and no process logged a traceback or an ERROR.
"""

from __future__ import annotations

import pytest

from tests.support.arena_event import check_event, make_arena, run_event, served_site

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def site(tmp_path, transactional_db):
    with served_site(tmp_path) as served:
        yield served


def test_an_arena_of_24_players_runs_to_its_prizes(site):
    tournament = make_arena()
    summary = run_event(site, tournament, kill_worker_after=None)
    check_event(tournament, summary)
    assert not site.problems(), site.problems()[:20]
