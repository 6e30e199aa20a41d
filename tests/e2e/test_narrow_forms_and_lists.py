"""Issue 26, defect 8, in Chromium at 375 px: a profile and the match lists of a player with
finished matches do not scroll sideways, and a friend request for a pasted 150-letter name shows
its error inside the panel."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from accounts.models import Player
from tests.support.ladder import beats
from tests.support.players import make_player

from .people import Person
from .test_newcomer_pages import LONG, PHONE, SIDEWAYS_JS, no_sideways_scroll, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The error's box and its panel's, to compare their right edges.
EDGES_JS = """() => {
  const error = document.querySelector("main .panel .error");
  const panel = error.closest(".panel");
  return [error.getBoundingClientRect().right, panel.getBoundingClientRect().right,
          error.textContent];
}"""


@pytest.fixture
def player(browser, e2e_server):
    person = sign_up(Person(browser, e2e_server, "long"), LONG)
    yield person
    errors = list(person.errors)
    person.context.close()
    assert not errors, errors


def _finished_matches() -> None:
    """Three finished matches (two rated, one casual) against a rival as wide as the player."""
    me = Player.objects.get(name=LONG)
    rival = make_player("M" * 24)
    beats(me, rival)
    beats(rival, me, game="japanese_whist")
    beats(me, rival, rated=False)


def test_a_profile_and_the_match_lists_fit_a_phone(player):
    # Off Playwright's thread: the services publish through the channel layer's sync wrapper.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_finished_matches).result()
    for path in (
        f"/players/{LONG}/",
        "/matches/",
        f"/matches/?player={LONG}",
        "/matches/?game=japanese_joker",
    ):
        no_sideways_scroll(player, path)


def test_a_pasted_long_name_keeps_the_friend_request_error_in_its_panel(player):
    page = player.page
    page.set_viewport_size(PHONE)
    page.goto("/friends/")
    page.fill("#id_username", "x" * 150)
    page.get_by_role("button", name="Send request").click()
    page.wait_for_load_state()
    error_right, panel_right, text = page.evaluate(EDGES_JS)
    assert text == f"There is no player called “{'x' * 24}…”."
    assert error_right <= panel_right
    assert page.evaluate(SIDEWAYS_JS)[0] <= PHONE["width"]
