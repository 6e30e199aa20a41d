"""The table fits the window (issue 12 § 3): for each game, in every state a test can reach
(the waiting room, the trump choice and bidding, play with a trick on the table, the joker's
lead panel, the end of the match), at 1280×720 and 1366×768 the hand, the trick, the scores and
the decision on screen lie inside the window without scrolling, and at 375 px nothing scrolls
sideways. Situations come from tests/support/match_states.py (the pages open the table again and
take the fresh snapshot); screenshots of each go to tests/e2e/artifacts/layout-*.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support import match_states

from .people import DESKTOP, Person
from .phone import reopen_to_act

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [
    {"width": 1280, "height": 720},
    {"width": 1366, "height": 768},
    {"width": 375, "height": 740},
]

MEASURE_JS = """selectors => {
  window.scrollTo(0, 0);
  const rects = {};
  for (const selector of selectors) {
    rects[selector] = [...document.querySelectorAll(selector)]
      .filter(node => node.getClientRects().length
        && getComputedStyle(node).visibility !== "hidden")
      .map(node => {
        const r = node.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
      });
  }
  return {rects, width: innerWidth, height: innerHeight,
          scrollWidth: document.documentElement.scrollWidth};
}"""

# What must be in sight at a desktop size: the hand, the trick, every seat's box (names, bids,
# tricks and scores), the facts bar, and the decision when there is one.
TABLE_PARTS = ["#my-hand", ".trick-zone", ".seat-box", "#play-facts", "#action-panel"]
RESULT_PARTS = ["dialog[open] .modal-actions", "dialog[open] .modal-title"]


def check(person: Person, artifacts, name: str, parts: list[str]) -> None:
    """At each size: no sideways scrolling; at the desktop sizes, ``parts`` inside the window."""
    for size in SIZES:
        person.resize(size)
        person.page.screenshot(
            scale="css", path=str(artifacts / f"layout-{name}-{size['width']}.png")
        )
        found: dict[str, Any] = person.page.evaluate(MEASURE_JS, parts)
        assert found["scrollWidth"] <= found["width"], (
            f"{name} at {size['width']}: the page scrolls sideways ({found['scrollWidth']}px)"
        )
        if size["width"] < 1000:
            continue
        for selector, rects in found["rects"].items():
            for rect in rects:
                inside = (
                    rect["left"] >= 0
                    and rect["top"] >= 0
                    and rect["right"] <= found["width"] + 0.5
                    and rect["bottom"] <= found["height"] + 0.5
                )
                assert inside, (
                    f"{name} at {size['width']}×{size['height']}: {selector} is outside the"
                    f" window: {rect}"
                )
    person.page.set_viewport_size(DESKTOP)


def reopen(people: list[Person], url: str, version: int) -> dict[int, Person]:
    by_seat = {}
    for person in people:
        person.page.goto(url)
        by_seat[person.wait_version(version)["seat"]] = person
    return by_seat


def last_move(state: Any) -> bool:
    """One more move ends the match, whatever it is."""
    if state.result or state.to_act is None:
        return False
    return all(state.apply(a).result for a in match_states.legal(state))


def click_a_legal_card(person: Person, avoid_jokers: bool = True) -> None:
    cards = person.page.locator(
        "#match-area .mine button.card.legal" + (":not(.joker)" if avoid_jokers else "")
    )
    cards.first.click(position={"x": 6, "y": 12})


# Measured in the page, on the first frame where the collected trick lies still (nothing glides),
# because the collection lasts 1.7 s and a slow machine can spend that on a screenshot.
OVERLAP_JS = """() => {
  if (document.querySelector('.gliding')) return null;
  const box = node => node.getBoundingClientRect();
  const cut = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const trick = [...document.querySelectorAll('.trick-collect .card')].map(box);
  const table = [...document.querySelectorAll('.seat-zone .card')].map(box);
  if (!trick.length) return null;
  document.querySelector('.trick-collect').scrollIntoView({block: 'nearest'});  // for the picture
  return {trick: trick.length, overlaps: trick.filter(t => table.some(c => cut(t, c))).length};
}"""


def collected(person: Person, artifacts, game: str) -> None:
    """At 375 px, the trick being collected does not lie over anybody's cards (issue 12 § 3)."""
    page = person.page
    person.resize(SIZES[2])
    click_a_legal_card(person, avoid_jokers=True)
    if page.locator("#action-panel .joker-decision").count():
        page.locator("#action-panel .choices button").first.click()
    page.locator(".trick-zone.collecting").wait_for()
    found = page.wait_for_function(OVERLAP_JS).json_value()  # the last card has landed
    page.screenshot(scale="css", path=str(artifacts / f"layout-{game}-collecting-375.png"))
    assert found["trick"] == 2 and found["overlaps"] == 0, found
    page.set_viewport_size(DESKTOP)


GAMES = {
    "japanese_joker": (2, {"points": "11"}),
    "classic_joker": (4, {"pulkas": "nines"}),  # 9-card deals: the widest opponents' fans
    "japanese_whist": (2, {"points": "5"}),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_table_state_fits_the_window(people, artifacts, game):
    seats, options = GAMES[game]
    group = people(seats)
    host = group[0]
    url = host.open_table(game, options)
    table_id = int(re.search(r"/tables/(\d+)/", url).group(1))
    host.page.locator('#live-status[data-connected="yes"]').wait_for(state="attached")
    check(host, artifacts, f"{game}-waiting", [])

    for person in group[1:]:
        person.join(url)
    by_seat = {}
    for person in group:
        by_seat[person.wait_version(0)["seat"]] = person
    state = host.state
    chooser = by_seat[state["view"]["to_act"]]
    chooser.page.locator("#action-panel .choices button").first.wait_for()
    check(chooser, artifacts, f"{game}-{state['view']['phase']}", TABLE_PARTS)

    if game == "classic_joker":  # the bids of a 9-card deal, then the bids so far
        version = match_states.play_until(
            table_id,
            lambda s: (
                s.view(None)["phase"] == "bid" and any(b is not None for b in s.view(None)["bids"])
            ),
        )
        by_seat = reopen(group, url, version)
        bidder = by_seat[group[0].state["view"]["to_act"]]
        bidder.page.locator('#action-panel button[data-bid="9"]').wait_for()
        check(bidder, artifacts, f"{game}-bid", TABLE_PARTS)
        watcher = next(p for s, p in by_seat.items() if s != group[0].state["view"]["to_act"])
        check(watcher, artifacts, f"{game}-bids-so-far", TABLE_PARTS)

    # Play, a trick on the table and one won before: every page, the one to act first.
    version = match_states.play_until(table_id, match_states.trick_half_played, seed=1)
    by_seat = reopen(group, url, version)
    to_act = group[0].state["view"]["to_act"]
    by_seat[to_act].page.locator("#match-area .mine button.card.legal").first.wait_for()
    check(by_seat[to_act], artifacts, f"{game}-play", TABLE_PARTS)
    other = by_seat[(to_act + 1) % seats]
    check(other, artifacts, f"{game}-play-waiting", TABLE_PARTS)
    if seats == 2:  # the card that completes the trick: it is shown whole, clear of the cards
        collected(by_seat[to_act], artifacts, game)

    if game != "japanese_whist":  # the joker's lead: want or take, in each suit
        version = match_states.play_until(table_id, match_states.joker_lead, seed=2)
        leader = reopen_to_act(group, url, version)
        leader.page.locator("#match-area .mine button.card.legal.joker").first.click(
            position={"x": 6, "y": 12}
        )
        leader.page.locator("#action-panel .joker-decision").wait_for()
        check(leader, artifacts, f"{game}-joker-lead", TABLE_PARTS)

    # The end: one move from it, then that move by clicking; the result on every page.
    version = match_states.play_until(table_id, last_move, seed=3, limit=3000)
    by_seat = reopen(group, url, version)
    last = by_seat[group[0].state["view"]["to_act"]]
    last.page.locator("#match-area .mine button.card.legal").first.wait_for()
    click_a_legal_card(last, avoid_jokers=False)
    if last.page.locator("#action-panel .joker-decision").count():
        last.page.locator("#action-panel .choices button").first.click()
    for person in by_seat.values():
        person.page.locator("#dialog-result").wait_for()
    check(last, artifacts, f"{game}-result", RESULT_PARTS)
