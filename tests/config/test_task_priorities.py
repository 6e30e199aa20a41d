"""The order a worker takes tasks in from Redis (core/priorities.py): what a player waits on
first, even when a burst of counts and ratings was enqueued before it."""

from __future__ import annotations

import uuid

import pytest
import redis
from celery import current_app
from django.conf import settings

pytestmark = pytest.mark.redis


@pytest.fixture
def real_broker():
    """Tasks go to the broker (the test settings run them on the spot)."""
    conf = current_app.conf
    eager = conf.task_always_eager
    conf.task_always_eager = False
    queue = f"priority-test-{uuid.uuid4().hex}"
    try:
        yield queue
    finally:
        conf.task_always_eager = eager
        client = redis.Redis.from_url(settings.REDIS_URL)
        client.delete(*client.keys(f"*{queue}*"))


def taken_in_order(queue: str) -> list[tuple[str, list[int]]]:
    taken = []
    with current_app.connection_for_read() as connection:
        channel = connection.default_channel
        while (message := channel.basic_get(queue, no_ack=True)) is not None:
            taken.append((message.headers["task"], list(message.decode()[0])))
    return taken


def test_an_arena_pass_enqueued_after_a_burst_of_match_ends_is_taken_first(real_broker):
    with current_app.connection_for_write() as connection:
        for match in (1, 2):
            for name in ("ladder.tasks.rate_match", "tournaments.tasks.count_table"):
                current_app.tasks[name].apply_async(
                    (match,), queue=real_broker, connection=connection
                )
        current_app.tasks["tournaments.tasks.arena_pass"].apply_async(
            (9,), queue=real_broker, connection=connection
        )
        current_app.tasks["ladder.tasks.rate_unrated_matches"].apply_async(
            (), queue=real_broker, connection=connection
        )
        current_app.tasks["games.tasks.play_bot_turn"].apply_async(
            (5, 3), queue=real_broker, connection=connection
        )
    assert taken_in_order(real_broker) == [
        ("tournaments.tasks.arena_pass", [9]),
        ("games.tasks.play_bot_turn", [5, 3]),
        ("tournaments.tasks.count_table", [1]),
        ("tournaments.tasks.count_table", [2]),
        ("ladder.tasks.rate_match", [1]),
        ("ladder.tasks.rate_match", [2]),
        ("ladder.tasks.rate_unrated_matches", []),
    ]
