"""Touch on a phone (issue 26): a tap plays a card, once; the card glides from the hand to the
trick; a short buzz where the browser offers one, not with reduced motion or with "Vibration"
off; and "Tap twice to play" (off by default, kept in localStorage) raises a card on the first
tap and plays it on the second.

The socket's outgoing frames are counted, so a second tap that sent a second `act` would show.
"""

from __future__ import annotations

import json

import pytest

from tests.support import match_states

from .people import Person
from .phone import phone_people, reopen, table_id  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# navigator.vibrate as the page calls it, recorded (Chromium's emulation does not buzz); and
# every trick card seen gliding with a transform under way.
SPY_JS = """() => {
  window.__buzz = [];
  Object.defineProperty(Navigator.prototype, 'vibrate', {configurable: true,
    value: pattern => { window.__buzz.push(pattern); return true; }});
  window.__glided = [];
  new MutationObserver(records => {
    for (const r of records) {
      const n = r.target;
      if (n.classList && n.classList.contains('gliding') && n.closest('.trick-zone')
          && getComputedStyle(n).transform !== 'none') window.__glided.push(n.dataset.card);
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['class']});
}"""


def watch_acts(person: Person) -> list[str]:
    """The `act` frames this page sends from now on (its socket opens after this)."""
    acts: list[str] = []

    def on_socket(socket) -> None:
        def sent(payload) -> None:
            if isinstance(payload, str) and json.loads(payload).get("type") == "act":
                acts.append(json.loads(payload)["action"].get("card", ""))

        socket.on("framesent", sent)

    person.page.on("websocket", on_socket)
    person.page.add_init_script(f"({SPY_JS})()")
    return acts


def legal_point(person: Person) -> tuple[str, float, float]:
    card = person.page.locator("#match-area .mine button.card.legal:not(.joker)").first
    card.wait_for()
    box = card.bounding_box()
    return card.get_attribute("data-card"), box["x"] + 8, box["y"] + box["height"] * 0.3


def test_a_tap_plays_once_glides_and_buzzes_and_tap_twice_is_a_setting(phones):
    group = phones(2)
    url = group[0].open_table("japanese_joker", {"points": "21"})
    group[1].join(url)
    group[0].wait_version(0)
    acts = {person.name: watch_acts(person) for person in group}
    version = match_states.play_until(
        table_id(url),
        lambda s: s.view(None)["phase"] == "play" and not s.view(None)["trick"],
        seed=2,
        avoid=lambda a: a.get("card", "")[:1] == "X",
    )
    by_seat = reopen(group, url, version)

    # Two quick taps on a card: one move, no refusal; it glides to the trick, one buzz.
    leader = by_seat[group[0].state["view"]["to_act"]]
    code, x, y = legal_point(leader)
    leader.page.touchscreen.tap(x, y)
    leader.page.touchscreen.tap(x, y)
    leader.wait_version(version + 1)
    leader.page.wait_for_timeout(600)  # a second act would have gone by now
    assert acts[leader.name] == [code]
    assert leader.page.locator("#play-error").inner_text() == ""
    assert leader.page.evaluate("window.__glided") == [code]
    assert leader.page.evaluate("window.__buzz.length") == 1

    # "Tap twice to play", from the page's tools ("More"), kept for the next visit.
    for person in group:
        person.wait_version(version + 1)
    follower = next(p for p in group if p.state["view"]["to_act"] == p.state["seat"])
    page = follower.page
    before = list(acts[follower.name])
    page.locator("#tool-more").tap()
    page.locator("#tool-tap-confirm").tap()
    assert page.locator("#tool-tap-confirm").get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('joker.table.tapConfirm')") == "1"
    page.locator("#tool-more").tap()
    # With reduced motion: no glide and no buzz.
    page.emulate_media(reduced_motion="reduce")
    code, x, y = legal_point(follower)
    page.touchscreen.tap(x, y)
    selected = page.locator(f'#match-area .mine button.card.selected[data-card="{code}"]')
    selected.wait_for()
    assert selected.get_attribute("aria-pressed") == "true"
    page.wait_for_timeout(400)
    assert acts[follower.name] == before  # the first tap only raised it
    page.touchscreen.tap(x, y)
    follower.wait_version(version + 2)
    assert acts[follower.name] == [*before, code]
    assert code not in page.evaluate("window.__glided")  # (the other seat's card glided in)
    assert page.evaluate("window.__buzz.length") == 0
