"""The table on a phone, measured as a person sees it (issue 26): the sizes, people on emulated
phones, and one measurement of a page: whether it scrolls, what lies outside the screen, what is
covered, and how wide each playable card's tap target is."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support import match_states

from .conftest import _postgres, _server_settled
from .people import TOUCH_PHONE, Person

PHONES = [
    {"width": 360, "height": 640},
    {"width": 375, "height": 667},
    {"width": 390, "height": 844},
    {"width": 430, "height": 932},
]
LANDSCAPE = {"width": 844, "height": 390}
TAP = 44  # the narrowest tap target a playable card may have, in CSS px

# One look at the page, scrolled to the top as it opens. An element "shows" where its box is
# not cut away by an ancestor that clips its overflow; what shows must lie inside the screen.
# `parts` must show, whole, and not be covered (the point at the centre of each hits it);
# a playable card's tap target is the widest run of points, along a line across its upper
# part, where a tap lands on that card (what the next card in the fan leaves uncovered).
MEASURE_JS = """parts => {
  window.scrollTo(0, 0);
  const W = innerWidth, H = innerHeight, root = document.scrollingElement;
  const shown = n => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== "hidden";
  const label = n => (n.id ? "#" + n.id : n.tagName.toLowerCase()
    + (typeof n.className === "string" && n.className.trim()
      ? "." + n.className.trim().split(/\\s+/).join(".") : ""))
    + (n.dataset && n.dataset.card ? "[" + n.dataset.card + "]" : "");
  const shows = n => {
    const r = n.getBoundingClientRect();
    let b = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    for (let a = n.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") {
        const q = a.getBoundingClientRect();
        b = {left: Math.max(b.left, q.left), top: Math.max(b.top, q.top),
             right: Math.min(b.right, q.right), bottom: Math.min(b.bottom, q.bottom)};
      }
    }
    return b;
  };
  const round = b => [b.left, b.top, b.right, b.bottom].map(v => Math.round(v));
  const inside = b => b.left >= -0.5 && b.top >= -0.5 && b.right <= W + 0.5 && b.bottom <= H + 0.5;
  const outside = [];
  for (const n of document.body.querySelectorAll("*")) {
    if (!shown(n)) continue;
    const b = shows(n);
    if (b.right - b.left < 1 || b.bottom - b.top < 1) continue;
    if (!inside(b)) outside.push(label(n) + " " + JSON.stringify(round(b)));
  }
  const missing = [], cut = [], covered = [];
  for (const selector of parts) {
    const nodes = [...document.querySelectorAll(selector)].filter(shown);
    if (!nodes.length) { missing.push(selector); continue; }
    for (const n of nodes) {
      const r = n.getBoundingClientRect();
      if (!inside(r)) cut.push(label(n) + " " + JSON.stringify(round(r)));
      if (n.matches("#my-hand .card, .columns .card, .layout .card")) continue;  // fans: taps below
      const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      if (!hit || !(n.contains(hit) || hit.contains(n))) {
        covered.push(label(n) + " under " + (hit ? label(hit) : "nothing"));
      }
    }
  }
  const taps = [];
  for (const card of document.querySelectorAll("#match-area .mine button.card.legal")) {
    const r = card.getBoundingClientRect();
    const y = r.top + r.height * 0.3;
    let run = 0, best = 0;
    for (let x = Math.floor(r.left); x <= Math.ceil(r.right); x += 1) {
      const hit = document.elementFromPoint(x, y);
      run = hit && card.contains(hit) ? run + 1 : 0;
      best = Math.max(best, run);
    }
    taps.push({card: card.dataset.card, from: card.dataset.from, width: best,
               cardWidth: Math.round(r.width)});
  }
  const dialogs = [...document.querySelectorAll("dialog[open]")].map(d => ({
    id: d.id, scrollWidth: d.scrollWidth, clientWidth: d.clientWidth,
    wide: [...d.querySelectorAll("th, td")].filter(c => c.scrollWidth > c.clientWidth + 1
      && !c.matches(".seat-name, .seat-head")).map(c => c.textContent),
  }));
  return {width: W, height: H, scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight,
          outside, missing, cut, covered, taps, dialogs};
}"""

# What must be on the screen while a match is played: the others, the trick, whose turn it is
# and the clock, the decision (when there is one) and the hand, every card of it.
TABLE_PARTS = [
    ".seat-zone:not(.me) .seat-box",
    ".trick-zone",
    "#turn-line",
    "#action-panel:not([hidden])",
    "#action-panel:not([hidden]) button:not([disabled])",
    "#my-hand .card",
]


def measure(person: Person, parts: list[str]) -> dict[str, Any]:
    return person.page.evaluate(MEASURE_JS, parts)


def problems(found: dict[str, Any], *, turn: bool = True) -> list[str]:
    """Everything that keeps this page from being one screen with nothing to scroll."""
    said = []
    if found["scrollHeight"] > found["height"] or found["scrollWidth"] > found["width"]:
        said.append(
            f"the page scrolls: {found['scrollWidth']}×{found['scrollHeight']}"
            f" in {found['width']}×{found['height']}"
        )
    for key in ("outside", "cut", "covered"):
        if found[key]:
            said.append(f"{key}: {found[key][:6]}")
    missing = [m for m in found["missing"] if "action-panel" not in m and "seat-zone" not in m]
    if not turn:
        missing = [m for m in missing if m != "#turn-line"]
    if missing:
        said.append(f"missing: {missing}")
    narrow = [t for t in found["taps"] if t["width"] < TAP]
    if narrow:
        said.append(f"tap targets under {TAP}px: {narrow}")
    for dialog in found["dialogs"]:
        if dialog["scrollWidth"] > dialog["clientWidth"] or dialog["wide"]:
            said.append(f"{dialog['id']} is cut sideways: {dialog}")
    return said


def reopen(people: list[Person], url: str, version: int) -> dict[int, Person]:
    """Every page opens the table again (a fresh snapshot); by seat (spectators left out)."""
    by_seat = {}
    for person in people:
        person.page.goto(url)
        state = person.wait_version(version)
        if state["seat"] is not None:
            by_seat[state["seat"]] = person
    return by_seat


def reopen_to_act(people: list[Person], url: str, version: int) -> Person:
    """Only the page of the seat to act opens the table again, when it alone is looked at: the
    others' stale pages cost a reload each and are not read (a later move's frame or their own
    reopening brings them up to date)."""
    seat = match_states.to_act(table_id(url))
    person = next(p for p in people if p.state["seat"] == seat)
    person.page.goto(url)
    person.wait_version(version)
    return person


def hand_ends(state: Any) -> bool:
    """One more move, whichever it is, ends the hand (or deal) and starts the next."""
    if state.result or state.to_act is None or state.view(None)["phase"] != "play":
        return False
    number = state.view(None)["hand_number"]
    return all(
        (after := state.apply(a)).result is None and after.view(None)["hand_number"] != number
        for a in match_states.legal(state)
    )


def reach(tid: int, done, *, limit: int = 3000) -> int:
    """``match_states.play_until`` with the first seed whose walk gets there: a random walk
    may end the match before (the deals come from the match's own random seed)."""
    for seed in range(30):
        try:
            return match_states.play_until(tid, done, seed=seed, limit=limit)
        except AssertionError:
            continue
    raise AssertionError("no walk reached the situation")


def play_a_card(person: Person) -> str:
    """A legal card, clicked (a joker's first call when it asks for one); returns its code."""
    page = person.page
    card = page.locator("#match-area .mine button.card.legal").first
    card.wait_for()
    code = card.get_attribute("data-card")
    card.click(position={"x": 8, "y": 12})
    if page.locator("#action-panel .joker-decision").count():
        page.locator("#action-panel .choices button:not([disabled])").first.click()
    return code


def table_id(url: str) -> int:
    return int(re.search(r"/tables/(\d+)/", url).group(1))


def record(artifacts: Path, name: str, rows: list[dict[str, Any]]) -> None:
    """The measurements behind a test, for people to read (tap widths by size and phase)."""
    (artifacts / f"{name}.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False))


@pytest.fixture(name="phones")
def phone_people(browser, e2e_server, django_db_blocker):
    """``phones(n)``: n guests, each on an emulated phone (touch, 3× pixels) of their own."""
    made: list[Person] = []

    def make(count: int, size: dict[str, int] = PHONES[2]) -> list[Person]:
        group = []
        for _ in range(count):
            person = Person(
                browser, e2e_server, f"phone{len(made)}", viewport=size, device=TOUCH_PHONE
            )
            person.become_guest()
            made.append(person)
            group.append(person)
        return group

    yield make
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    for person in made:
        person.context.close()
    if _postgres():
        _server_settled(django_db_blocker)
    assert not errors, errors
