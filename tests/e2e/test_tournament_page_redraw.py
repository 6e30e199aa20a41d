"""A running event's page draws itself again only when its socket's first frame is newer than
the page (issue 43: every reader's opening of the page fetched it a second time, whatever the
frame said). The page carries the standings' version it was drawn at (``data-version``); the
page whose version is older (a change while it loaded, made here by rewriting the version the
server sent) fetches itself once and then names the frame's version.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tests.support.players import make_player
from tests.tournaments.test_pages import event, started
from tournaments.models import Tournament

from .people import Person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Before the page's scripts run (they are modules: after the document is parsed).
STALE_JS = """new MutationObserver((_, observer) => {
  const root = document.getElementById("tournament");
  if (root) { root.dataset.version = "running:0:0:0:stale"; observer.disconnect(); }
}).observe(document, {childList: true, subtree: true});"""


def _swiss() -> int:
    """A Swiss event in its first round: its page keeps a socket open."""
    players = [make_player(name) for name in ("rd_anna", "rd_boris", "rd_chris")]
    swiss = started(
        event("Redraw cup", format=Tournament.Format.SWISS, rounds=2, duration_minutes=None),
        players,
    )
    connection.close()
    return swiss.pk


@pytest.fixture(name="opened")
def opened_page(browser, e2e_server):
    """``opened(stale)``: the event's page opened (its version rewritten to an old one when
    ``stale``) until its socket's first standings frame; the page and its fetches of itself."""
    with ThreadPoolExecutor(1) as pool:  # the services publish with async_to_sync
        url = f"/tournaments/{pool.submit(_swiss).result()}/"
    reader = Person(browser, e2e_server, "reader")

    def opened(stale: bool):
        page = reader.page
        fetched: list[str] = []
        frames: list[str] = []
        page.on("request", lambda r: r.resource_type == "fetch" and fetched.append(r.url))
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
        if stale:  # the page as if drawn before a change: its version an older one
            page.add_init_script(STALE_JS)
        page.goto(url)
        for _ in range(100):  # the socket's first frame, within 10 s
            if any('"standings"' in frame for frame in frames):
                break
            page.wait_for_timeout(100)
        else:
            raise AssertionError(f"no standings frame within 10 s; frames: {frames}")
        return page, fetched, frames

    yield opened
    errors = reader.errors
    reader.context.close()
    assert not errors, errors


def test_a_first_frame_of_the_pages_own_version_draws_nothing_again(opened):
    page, fetched, _ = opened(stale=False)
    shown = page.locator("#tournament").get_attribute("data-version")
    page.wait_for_timeout(1000)  # a window in which the page must not fetch itself
    assert fetched == [], fetched
    assert page.locator("#tournament").get_attribute("data-version") == shown


def test_a_first_frame_newer_than_the_page_draws_it_again_once(opened):
    page, fetched, frames = opened(stale=True)
    page.wait_for_function(
        "() => document.getElementById('tournament').dataset.version.indexOf('stale') < 0"
    )
    (first,) = [frame for frame in frames if '"standings"' in frame][:1]
    version = re.search(r'"version": ?"([^"]+)"', first).group(1)
    assert page.locator("#tournament").get_attribute("data-version") == version
    assert len(fetched) == 1, fetched
    assert page.locator("#tournament-standings").is_visible()
