"""The ladder in the browser (issue 14): two people who signed up play ten rated matches (each
ends when one of them leaves once both have moved, then both take the rematch), see their rating
change on the end-of-match screen, and then a third person looks at the leaderboard and a profile
with its rating chart. After the first match the ladder already lists both, as provisional
(issue 26). Screenshots land in ``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import random
import re

import pytest

from .people import PHONE, Person
from .test_table_page import move, sync_all

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Who leaves each match (the other wins): ten rated matches make both players ranked.
LEAVERS = ["lev", "lana", "lev", "lev", "lana", "lev", "lev", "lana", "lev", "lev"]


def begin(people: list[Person], rng: random.Random) -> None:
    """Each seat makes a move of its own through its page (the trump, then a card each): before
    that, leaving aborts the match instead of forfeiting it (docs/rules/README.md § 0.6)."""
    by_seat = {person.state["seat"]: person for person in people}
    version = people[0].state["version"]
    moved: set[int] = set()
    while len(moved) < len(by_seat):
        seat = sync_all(by_seat, version)["view"]["to_act"]
        move(by_seat[seat], rng)
        moved.add(seat)
        version += 1
    sync_all(by_seat, version)


@pytest.fixture
def players(browser, e2e_server, people):
    """lana and lev, signed up, each in a browser of their own; and lia, who only looks."""
    made = [Person(browser, e2e_server, name).sign_up(name) for name in ("lana", "lev", "lia")]
    yield dict(zip(("lana", "lev", "lia"), made, strict=True))
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    for person in made:
        person.context.close()
    assert not errors, errors


def test_rated_matches_the_rating_change_the_leaderboard_and_a_profile_chart(players, artifacts):
    lana, lev, lia = players["lana"], players["lev"], players["lia"]
    url = lana.open_table("japanese_joker")
    assert "Rated" in lana.page.locator("#table-rated").inner_text()
    lev.join(url)
    for person in (lana, lev):
        assert person.wait_version(0)["status"] == "playing"

    rng = random.Random(26)
    for number, leaver_name in enumerate(LEAVERS, start=1):
        leaver = players[leaver_name]
        winner = lev if leaver is lana else lana
        begin([lana, lev], rng)
        leaver.page.locator("#tool-leave").click()
        leaver.page.locator("#dialog-leave").get_by_role("button", name="Leave and forfeit").click()
        for person, sign in ((winner, "+"), (leaver, "−")):
            mine = person.page.locator("#dialog-result #rating-change .rating-mine")
            mine.wait_for()
            text = mine.inner_text()
            assert re.fullmatch(
                rf"Your rating: \d+\??\s→\s\d+\??\s\({re.escape(sign)}\d+\)", text
            ), text
            if number == 1:
                assert text.startswith("Your rating: 1500? → ")
        if number == 1:
            winner.snap(artifacts, "ladder-match-result")
            # A young site: after one rated match the ladder lists both, as provisional.
            lia.page.goto("/ladder/")
            top = lia.page.locator("#ladder-japanese_joker .top-list li")
            assert top.count() == 2
            assert lia.page.locator("#ladder-japanese_joker .badge.provisional").count() == 2
        if number == len(LEAVERS):
            assert "?" not in lana.page.locator("#rating-change .rating-mine").inner_text()
            break
        old = lana.page.url
        for person in (lana, lev):
            person.page.locator("#rematch-button").click()
        for person in (lana, lev):
            person.page.wait_for_url(lambda u, old=old: u != old and "/tables/" in u)
            assert person.wait_version(0)["status"] == "playing"

    # The finished table, opened again, still shows the change (from the ladder, not the socket).
    lana.page.reload()
    lana.page.locator("#dialog-result #rating-change .rating-mine").wait_for()

    # The leaderboard, as someone who has not played yet.
    page = lia.page
    page.goto("/ladder/japanese_joker/")
    rows = page.locator("table.leaderboard tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).get_attribute("data-player") == "lana"  # she won seven of ten
    assert rows.nth(0).locator("td").nth(0).inner_text() == "1"
    assert rows.nth(0).locator("td").nth(3).inner_text() == "10"
    assert rows.nth(0).locator("td").nth(4).inner_text() == "70%"
    assert "no rated match in this game yet" in page.locator(".mine").inner_text()
    lia.screenshot(artifacts, "ladder-leaderboard")
    page.fill("#ladder-search", "le")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url("**/ladder/japanese_joker/?q=le")
    page.locator("table.leaderboard tbody tr").first.wait_for()
    assert page.locator("table.leaderboard tbody tr").count() == 1
    assert page.locator("table.leaderboard tbody tr td").nth(0).inner_text() == "2"

    page.goto("/ladder/")
    assert page.locator("#ladder-japanese_joker .top-list li").count() == 2

    # lana's profile: her rank, and one point of the chart per rated match.
    page.goto("/players/lana/")
    card = page.locator("#rating-japanese_joker")
    assert "rank #1" in card.inner_text()
    assert card.locator("svg circle").count() == len(LEAVERS)
    assert page.locator(".recent-matches tbody tr").count() == 10
    assert page.locator("[data-reputation=completion]").inner_text() == "70%"
    lia.screenshot(artifacts, "ladder-profile")
    page.set_viewport_size(PHONE)
    card.scroll_into_view_if_needed()
    lia.snap(artifacts, "ladder-profile-chart")
