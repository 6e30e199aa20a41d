"""Toy Tricks in real Chromium: the table page imports the renderer the game's spec names, from
this folder's static files, and two guests play a match to its end by clicking.

The browser fixtures are those of tests/e2e (a Daphne subprocess on the test settings, which
install this game).
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.conftest import browser, chromium_path, e2e_server, people  # noqa: F401

from .engine import NAME

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_two_guests_play_it_to_the_end_with_its_own_renderer(people):  # noqa: F811
    rng = random.Random(27)
    alice, bob = people(2)
    url = alice.open_table(NAME, {"points": "3"})
    bob.join(url)
    by_seat = {person.wait_version(0)["seat"]: person for person in (alice, bob)}
    for person in by_seat.values():
        # Drawn by tests/toy_game/static/toy_game/renderer.js, not by a built-in renderer.
        assert "to 3 points" in person.page.locator(".toy-facts").inner_text()
        assert len(person.hand()) == 3
    version = 0
    while (state := alice.wait_version(version))["status"] == "playing":
        actor = by_seat[state["view"]["to_act"]]
        actor.wait_version(version)
        actor.close_dialogs()  # a hand's summary
        cards = actor.page.locator("#match-area .mine button.card.legal")
        cards.first.wait_for()
        cards.nth(rng.randrange(cards.count())).click(position={"x": 6, "y": 12})
        version += 1
    winner = state["result"]["winners"][0]
    for seat, person in by_seat.items():
        result = person.page.locator("#dialog-result")
        result.wait_for()
        assert ("You won!" if seat == winner else "You lost") in result.inner_text()
