"""Classic Joker at two and three seats in real Chromium (issue 30 acceptance).

A guest opens a short classic table (two pulkas of four nines) for two or for three through the
create form, fills the other seats with computers, and plays the match to its end by clicking,
the computers answered by a real Celery worker over Redis. On the way each phase is pictured at
1280×720 and at 375 px (tests/e2e/artifacts/classic-<seats>-<phase>-<width>.png): the others sit
across (two) or at the sides (three), the sheet has a column a seat, and no page scrolls sideways.
"""

from __future__ import annotations

import random
import re

import pytest

from .people import PHONE, Person
from .test_practice_live import READY_JS, worker_site  # noqa: F401 (the fixture)
from .test_table_page import move

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

DESKTOP = {"width": 1280, "height": 720}


def picture(person: Person, artifacts, seats: int, phase: str) -> None:
    for size in (DESKTOP, PHONE):
        person.page.set_viewport_size(size)
        person.page.screenshot(
            scale="css", path=str(artifacts / f"classic-{seats}-{phase}-{size['width']}.png")
        )
        width = person.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"{phase} at {size['width']} px scrolls sideways"
    person.page.set_viewport_size(DESKTOP)


@pytest.mark.parametrize("seats", [2, 3])
def test_a_short_classic_match_for_two_or_three_against_computers_to_the_end(
    browser,
    worker_site,  # noqa: F811 (the fixture imported above)
    artifacts,
    seats,
):
    site, _worker = worker_site
    person = Person(browser, site, f"classic{seats}", viewport=DESKTOP)
    person.become_guest()
    page = person.page
    url = person.open_table("classic_joker", {"seats": str(seats), "pulkas": "short"})
    for _ in range(seats - 1):
        page.locator("#add-computer button").click()
        page.wait_for_url(url)
    page.wait_for_function(
        "() => window.jokerTable && window.jokerTable.client.state"
        " && window.jokerTable.client.state.status === 'playing'",
        timeout=30_000,
    )
    assert page.locator("#match-area .seat-zone").count() == seats
    positions = page.locator("#match-area .seat-zone").evaluate_all(
        "zones => zones.map(z => [...z.classList].find(c => c.startsWith('pos-')))"
    )
    expected = {2: {"pos-bottom", "pos-top"}, 3: {"pos-bottom", "pos-left", "pos-right"}}
    assert set(positions) == expected[seats]

    rng = random.Random(30 + seats)
    pictured: set[str] = set()
    for _ in range(600):
        page.wait_for_function(READY_JS, timeout=60_000)
        state = person.state
        if state["status"] != "playing":
            break
        view = state["view"]
        assert view["players"] == seats and len(view["hand_counts"]) == seats
        dealt = seats * view["cards"]
        assert sum(view["hand_counts"]) + len(view["trick"]) <= dealt
        phase = view["phase"]
        if phase not in pictured:
            pictured.add(phase)
            picture(person, artifacts, seats, phase)
        if page.locator("#dialog-summary[open]").count() and "summary" not in pictured:
            pictured.add("summary")
            picture(person, artifacts, seats, "summary")
        move(person, rng)
        page.wait_for_function(
            "v => window.jokerTable.client.state.version > v", arg=state["version"]
        )
    else:
        pytest.fail("the match did not end")
    final = person.state
    assert final["result"] is not None
    assert len(final["view"]["sheet"]["rows"]) == 8  # the short game: eight deals
    page.locator("#dialog-result").wait_for()
    picture(person, artifacts, seats, "result")
    person.close_dialogs()
    page.locator("#tool-scores").click()
    page.locator("#dialog-sheet").wait_for()
    assert page.locator("#dialog-sheet th.seat-head").count() == seats
    picture(person, artifacts, seats, "sheet")
    assert {"trump", "bid", "play"} <= pictured
    assert re.search(r"/tables/\d+/$", page.url)
    assert not person.errors


def test_two_people_play_a_deal_of_two_seat_classic_across_the_table(people):
    """Two people, each in a browser of their own, at a two-seat classic table (on PostgreSQL
    and Redis under CI): each sees the other across, a back for each card the other holds, and
    plays the first deal to its end by clicking."""
    alice, bob = people(2)
    url = alice.open_table("classic_joker", {"seats": "2", "pulkas": "nines"})
    bob.join(url)
    for person in (alice, bob):
        state = person.wait_version(0)
        assert state["view"]["players"] == 2
        zones = person.page.locator("#match-area .seat-zone")
        assert zones.count() == 2
        assert person.page.locator("#match-area .seat-zone.pos-top").count() == 1
    rng = random.Random(2)
    by_seat = {alice.state["seat"]: alice, bob.state["seat"]: bob}
    while alice.state["view"]["deal_number"] == 1:
        state = alice.state
        actor = by_seat[state["view"]["to_act"]]
        actor.wait_version(state["version"])
        move(actor, rng)
        for person in (alice, bob):
            person.wait_version(state["version"] + 1)
    for person in (alice, bob):
        summary = person.state["view"]["previous_hand"]
        assert summary["deal_number"] == 1 and sum(summary["tricks"]) == 9
        assert len(summary["bids"]) == 2
        other = person.page.locator("#match-area .seat-zone.pos-top .hand-backs .card")
        assert other.count() == person.state["view"]["hand_counts"][1 - person.state["seat"]]
