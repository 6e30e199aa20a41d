"""Play the computer in real Chromium, answered by a real Celery worker (issue 15 acceptance).

A guest presses "Play … against the computer" in the lobby, asks for a suggestion once (the
card is outlined), and plays the practice match to its end by clicking; every computer move is
the worker's, taken off Redis, and reaches the page through the Redis channel layer. Then the
guest asks for the review of their own play, which the worker makes (issue 31).
"""

from __future__ import annotations

import random
import re
import uuid

import pytest

from tests.ladder.test_worker_live import LIVE_SETTINGS, Worker
from tests.support.daphne import Daphne

from .people import Person
from .test_table_page import move

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

READY_JS = """() => {
  const t = window.jokerTable;
  const s = t && t.client.state;
  if (!s || s.status === "open") return false;
  if (s.status !== "playing") return true;
  return s.view.to_act === s.seat && !t.client.pending;
}"""


class Site:
    """The Daphne process as the browser helpers want it: a base ``url``."""

    def __init__(self, server: Daphne) -> None:
        self.url = f"http://127.0.0.1:{server.port}"


@pytest.fixture
def worker_site(tmp_path):
    queue = f"bots-e2e-{uuid.uuid4().hex[:8]}"
    server = Daphne(tmp_path, prefix=queue, redis=True)
    server.env.update({"DJANGO_SETTINGS_MODULE": LIVE_SETTINGS, "LADDER_TEST_QUEUE": queue})
    worker = Worker(server.env, tmp_path / "worker.log")
    try:
        yield Site(server.start()), worker.start()
    finally:
        server.kill()
        worker.stop()


def test_a_guest_plays_the_computer_to_the_end_in_the_browser(browser, worker_site, artifacts):
    site, worker = worker_site
    person = Person(browser, site, "guest")
    person.become_guest()
    page = person.page
    page.goto("/")
    practice = page.locator('form[data-practice="japanese_joker"]')
    practice.locator("select").select_option("easy")
    practice.get_by_role("button").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    rng = random.Random(15)
    suggested = False
    for _ in range(400):
        page.wait_for_function(READY_JS, timeout=60_000)
        state = person.state
        if state["status"] != "playing":
            break
        assert any(seat["bot"] for seat in state["seats"])
        if not suggested and state["view"]["phase"] == "play":
            page.locator("#suggest").click()
            page.locator(".card.suggested").wait_for()
            suggested = True
            person.snap(artifacts, "practice-suggestion")
        move(person, rng)
        page.wait_for_function(
            "v => window.jokerTable.client.state.version > v", arg=state["version"]
        )
    else:
        pytest.fail("the practice match did not end")
    assert suggested
    assert person.state["result"] is not None
    log = worker.log.read_text()
    assert re.search(r"Task games\.tasks\.play_bot_turn\[[^\]]+\] succeeded", log)
    review_own_play(person, worker, artifacts)
    assert not person.errors


def review_own_play(person: Person, worker: Worker, artifacts) -> None:
    """The match over, the guest asks for the review of their own seat on the match's page; the
    worker makes it (the page says so meanwhile), then the summary, the chart and the marks show,
    and a mark's link opens the replay at that decision with the line said (issue 31 § 1)."""
    page = person.page
    seat = person.state["seat"]
    page.goto(f"/matches/{person.state['match']}/")
    mine = f".review-seat[data-seat='{seat}']"
    page.locator(mine).get_by_role("button", name="Review this play").click()
    for _ in range(120):
        if page.locator(mine).get_attribute("data-status") == "done":
            break
        assert page.locator(f"{mine} .review-pending").is_visible()
        page.wait_for_timeout(1000)
        page.reload()
    else:
        pytest.fail("the worker did not make the review")
    assert re.search(r"Task games\.tasks\.review_match\[[^\]]+\] succeeded", worker.log.read_text())
    summary = page.locator(f"{mine} .review-summary").inner_text()
    assert re.search(r"\d+ mistakes?, \d+ blunders?; accuracy [\d.]+ %", summary), summary
    chart = page.locator(f"{mine} .review-chart svg")
    chart.scroll_into_view_if_needed()
    assert chart.is_visible() and chart.locator("polyline").count() == 2
    marks = page.locator(f"{mine} .review-marks li")
    called_out = page.locator(
        f"{mine} .review-chart circle.mistake, {mine} .review-chart circle.blunder"
    )
    assert called_out.count() == marks.count()
    page.screenshot(scale="css", path=str(artifacts / "practice-review.png"), full_page=True)
    if marks.count():  # random clicks against the computer: nearly always some
        marks.first.locator("a").click()
        page.locator("#replay.ready").wait_for()
        line = page.locator("#replay-board .rmark")
        assert line.is_visible() and "better" in line.inner_text()
