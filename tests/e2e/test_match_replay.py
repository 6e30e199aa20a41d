"""A finished match's page in the browser (issue 16): the replay stepped by card, by trick and
by hand, with the buttons and the keyboard, a deep link to a step, and the classic Joker score
sheet. Screenshots land in ``tests/e2e/artifacts/``.

The matches are played through the services in a ``manage.py shell`` run against the server's
own database (on SQLite the server's database is a file this process does not hold).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .conftest import ROOT
from .people import PHONE, Person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A match of at least two hands (the deals come from a fresh secret seed: a Japanese Joker match
# to 11 ends in its first hand about one time in ten, and there is then no hand to step to).
PLAY = """
import random
from games.rules import get_game
from tests.support.players import make_player
from tests.support.matches import play_out, start
for attempt in range(20):
    players = [make_player("{prefix}" + str(attempt) + str(n)) for n in range({seats})]
    table = start("{game}", players, options={options})
    match = play_out(table, random.Random({rng} + attempt))
    if get_game("{game}").from_dict(match.state).hand_number >= 2:
        break
print(match.pk)
"""


def play_match(server, game: str, seats: int, options: dict, prefix: str, rng: int) -> int:
    code = PLAY.format(game=game, seats=seats, options=options, prefix=prefix, rng=rng)
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip().splitlines()[-1])


def shown(page) -> int:
    return int(page.locator("#replay").get_attribute("data-shown"))


def test_stepping_a_finished_match_by_card_trick_and_hand(browser, e2e_server, artifacts):
    match_id = play_match(e2e_server, "japanese_joker", 2, {"points": 11}, "rj", 5)
    viewer = Person(browser, e2e_server, "viewer")
    page = viewer.page
    page.goto(f"/matches/{match_id}/")
    page.locator("#replay.ready").wait_for()
    assert shown(page) == 0
    assert page.locator("#replay-event").inner_text() == "The first deal."
    assert page.locator("#replay-board .rseat").count() == 2
    assert page.locator("#replay-board .rseat").first.locator(".rhand .rcard").count() == 3
    assert page.locator("#replay-board .rseat").first.locator(".rpending .rcard").count() == 15
    page.screenshot(scale="css", path=str(artifacts / "replay-start.png"), full_page=True)

    page.get_by_role("button", name="Card ▶").click()  # the trump choice
    assert shown(page) == 1 and "chooses trumps" in page.locator("#replay-event").inner_text()
    assert page.locator("#replay-board .rcard.was-down").count() == 10  # columns, face up now

    page.get_by_role("button", name="Trick ▶▶").click()
    assert shown(page) == 3  # the lead and the answer: the first trick is complete
    assert page.locator(".rtrick h3").inner_text().startswith("Trick taken by")
    assert page.locator(".rtrick .rcard").count() == 2
    page.screenshot(scale="css", path=str(artifacts / "replay-first-trick.png"), full_page=True)

    page.keyboard.press("Shift+ArrowRight")
    assert shown(page) == 5
    page.keyboard.press("ArrowLeft")
    assert shown(page) == 4 and page.locator(".rtrick .rcard").count() == 1  # a lead alone
    page.keyboard.press("Shift+ArrowLeft")
    assert shown(page) == 3

    page.keyboard.press("PageDown")  # the next hand: dealt, the last one summed up
    page.locator(".rfacts", has_text=re.compile(r"^Hand 2")).wait_for()
    second = shown(page)
    assert second > 30
    assert page.locator(".rsummary").inner_text().startswith("Hand 1 is over:")
    assert page.locator(".rtrick h3").inner_text().startswith("Trick taken by")  # the last one
    page.screenshot(scale="css", path=str(artifacts / "replay-hand-2.png"), full_page=True)
    page.get_by_role("button", name="|◀ Hand").click()
    assert shown(page) == 0
    page.get_by_role("button", name="Hand ▶|").click()
    assert shown(page) == second
    assert re.search(rf"\?step={second}$", page.url)

    page.keyboard.press("End")
    last = shown(page)
    assert page.locator("#replay-counter").inner_text() == f"Step {last} of {last}"

    # A shared link opens at its step, on a phone too.
    phone = Person(browser, e2e_server, "phone")
    phone.page.set_viewport_size(PHONE)
    phone.page.goto(f"/matches/{match_id}/?step=7")
    phone.page.locator("#replay.ready").wait_for()
    assert shown(phone.page) == 7
    assert phone.page.locator("#replay-link").get_attribute("href") == "?step=7"
    phone.page.screenshot(
        scale="css", path=str(artifacts / "replay-step-7-phone.png"), full_page=True
    )
    width = phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the match page scrolls sideways ({width}px)"
    errors = viewer.errors + phone.errors
    viewer.context.close()
    phone.context.close()
    assert not errors, errors


def test_a_classic_match_page_with_its_score_sheet_and_four_seats(browser, e2e_server, artifacts):
    match_id = play_match(e2e_server, "classic_joker", 4, {"pulkas": "nines"}, "rc", 21)
    viewer = Person(browser, e2e_server, "sheet")
    page = viewer.page
    page.goto(f"/matches/{match_id}/?step=40")
    page.locator("#replay.ready").wait_for()
    assert page.locator("#replay-board .rseat").count() == 4
    assert page.locator(".match-sheet tr[data-deal]").count() == 16
    page.keyboard.press("PageDown")
    assert page.locator(".rsummary").count() == 1
    page.screenshot(scale="css", path=str(artifacts / "replay-classic.png"), full_page=True)
    errors = viewer.errors
    viewer.context.close()
    assert not errors, errors
