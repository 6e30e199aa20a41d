"""Computer players answered by a real Celery worker on Redis and PostgreSQL (issue 15).

One person plays a practice match to the end over the websocket of a real Daphne process; every
computer move is the ``games.tasks.play_bot_turn`` task taken off Redis by a ``celery -A config
worker`` process and published to the person's socket through the Redis channel layer. Nothing
runs eagerly here, not even the table's start (the test process enqueues onto the broker).
"""

from __future__ import annotations

import re
import uuid

import pytest
from celery import current_app
from channels.db import database_sync_to_async as sync_to_async

from games.bots import easy
from games.models import Match, MatchEvent
from games.rules import get_game
from games.services import bots as bot_services
from tests.ladder.test_worker_live import LIVE_SETTINGS, Worker
from tests.support.daphne import Daphne, Remote, session_cookie

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

WAIT_SECONDS = 60  # for one computer move on a busy machine; it usually takes milliseconds


@pytest.fixture
def worker_site(tmp_path):
    """Daphne and a worker on the test's own queue; this process enqueues there too."""
    queue = f"bots-{uuid.uuid4().hex[:8]}"
    server = Daphne(tmp_path, prefix=queue, redis=True)
    server.env.update({"DJANGO_SETTINGS_MODULE": LIVE_SETTINGS, "LADDER_TEST_QUEUE": queue})
    worker = Worker(server.env, tmp_path / "worker.log")
    conf = current_app.conf
    before = conf.task_always_eager, conf.task_default_queue
    conf.task_always_eager, conf.task_default_queue = False, queue
    try:
        yield server.start(), worker.start()
    finally:
        conf.task_always_eager, conf.task_default_queue = before
        server.kill()
        worker.stop()


async def _play_as_person(remote: Remote, seat: int) -> int:
    """Answer every turn of ``seat`` with the easy bot's move until the match ends."""
    moves = 0
    while True:
        state = remote.state
        if state["status"] != "playing":
            return moves
        view = state["view"]
        if view["to_act"] != seat:
            await remote.recv(timeout=WAIT_SECONDS)  # the worker's move arrives as a state
            continue
        answer = await remote.act(easy.choose(view))
        assert answer["type"] == "ack", answer
        await remote.until_version(answer["version"])  # the ack may come before its state
        moves += 1


@pytest.mark.parametrize(
    ("game", "options"),
    [("japanese_joker", {"points": 11}), ("classic_joker", {"pulkas": "short"})],
)
@pytest.mark.slow
async def test_one_person_plays_a_practice_match_to_the_end_against_the_worker(
    alice, worker_site, game, options
):
    server, worker = worker_site
    table = await sync_to_async(bot_services.practice_start)(
        player=alice, game=game, strength="easy", options=options
    )
    remote = await Remote(await sync_to_async(session_cookie)(alice)).connect(server.url(table.pk))
    seat = remote.state["seat"]
    assert seat == 0 and all(s["bot"] for s in remote.state["seats"][1:])
    assert await _play_as_person(remote, seat) > 0
    match = await sync_to_async(Match.objects.get)(table=table)
    assert match.status == Match.Status.FINISHED
    computer_moves = await sync_to_async(MatchEvent.objects.filter(match=match, kind="bot").count)()
    assert computer_moves > 0
    assert len(re.findall(r"Task games\.tasks\.play_bot_turn\[", worker.log.read_text())) >= (
        computer_moves
    )
    final = get_game(game).from_dict(match.state).view(seat)
    if game == "classic_joker":  # the score sheet has every deal (the short format: 8 nines)
        assert len(final["sheet"]["rows"]) == 8
        assert remote.state["view"]["sheet"] == final["sheet"]
    await remote.close()
