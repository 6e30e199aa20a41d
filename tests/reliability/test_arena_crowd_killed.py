"""Issue 29's acceptance, with a failure: the arena of 24 websocket players of
test_arena_crowd.py against serve.py, with the Celery worker killed (SIGKILL) a minute into the
event and started again by serve.py. Afterwards the same checks: the event ended and paid its
prizes once, every finished match was rated and counted once, the standings equal a
recomputation, nobody sat at two tables at once, ``audit_coins`` is clean, and nothing but the
kill itself was logged as a problem."""

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


def test_an_arena_whose_worker_is_killed_mid_event_ends_the_same(site):
    tournament = make_arena()
    summary = run_event(site, tournament, kill_worker_after=60)
    check_event(tournament, summary)
    assert not [line for line in site.problems() if "SIGKILL" not in line], site.problems()[:20]
