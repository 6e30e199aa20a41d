"""A phone on its side at a table with a computer (issue 41 § 2): the decision beside the felt.

At 844×390 the column beside the felt holds whose turn it is, the decision and "Suggest". The
trump choice once took more room than the felt's height: the column squeezed the turn line to a
sliver that the panel covered, and "Suggest" fell below the column's end. Here a guest plays a
computer (Japanese Joker, the guest to choose the trump; classic Joker for three with a second
guest, the guest to bid at nine cards: ten bids): the turn line must show its every word, not
covered; every choice and "Suggest" must show whole, where a tap lands on them, and the page must
still be one screen. Screenshots: tests/e2e/artifacts/phone-side-<game>-<phase>-<size>.png.

Japanese Whist on its side (two guests, a trick begun): the trick's card was a third smaller than
the layout's (24 px) and its "led" tag hid the card's top corner; the trick's cards must be at
least 40 px wide and no smaller than the opponent's layout, their corners (rank and suit) not
covered.
Screenshots: phone-side-japanese_whist-trick-<size>.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import match_states

from .people import Person
from .phone import (
    LANDSCAPE,
    TABLE_PARTS,
    measure,
    phone_people,  # noqa: F401 (the fixture `phones`)
    problems,
    reopen,
    table_id,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [LANDSCAPE, {"width": 740, "height": 360}]

# The turn line: its words cut (taller or wider than its box) or covered (a tap at its middle,
# at a quarter and at three quarters of its width lands elsewhere). Each choice and "Suggest":
# whole where the clipping boxes around it leave it, and a tap at its middle lands on it.
SIDE_JS = """() => {
  const clipped = n => {
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
    b = {left: Math.max(b.left, 0), top: Math.max(b.top, 0),
         right: Math.min(b.right, innerWidth), bottom: Math.min(b.bottom, innerHeight)};
    return b.left > r.left + 0.5 || b.top > r.top + 0.5 || b.right < r.right - 0.5
      || b.bottom < r.bottom - 0.5;
  };
  const lands = (n, x, y) => { const hit = document.elementFromPoint(x, y);
                                return Boolean(hit && n.contains(hit)); };
  const said = [];
  const line = document.getElementById("turn-line");
  const r = line.getBoundingClientRect();
  const y = (r.top + r.bottom) / 2;
  if (line.scrollHeight > line.clientHeight + 1 || line.scrollWidth > line.clientWidth + 1)
    said.push(`the turn line is cut: ${line.scrollHeight} in ${line.clientHeight} px`);
  for (const f of [0.25, 0.5, 0.75])
    if (!lands(line, r.left + r.width * f, y)) said.push(`the turn line is covered at ${f}`);
  if (clipped(line)) said.push("the turn line is cut off");
  const buttons = [...document.querySelectorAll(
    "#action-panel:not([hidden]) button, .suggest:not([hidden]) #suggest")];
  if (!document.querySelector(".suggest:not([hidden]) #suggest")) said.push("no Suggest");
  for (const b of buttons) {
    const q = b.getBoundingClientRect();
    if (clipped(b)) said.push(`"${b.textContent}" is cut off`);
    else if (!lands(b, (q.left + q.right) / 2, (q.top + q.bottom) / 2))
      said.push(`"${b.textContent}" is covered`);
  }
  return said;
}"""


def look(person: Person, artifacts, name: str) -> list[str]:
    said = []
    person.page.locator("#action-panel .choices button:not([disabled])").first.wait_for()
    # The page opened again: its own seat is back online (no countdown in the turn line).
    person.page.wait_for_function("() => !document.querySelector('.seat-box.absent')")
    for size in SIZES:
        person.resize(size)
        shot = f"phone-side-{name}-{size['width']}x{size['height']}"
        person.page.screenshot(scale="css", path=str(artifacts / f"{shot}.png"))
        found: list[str] = person.page.evaluate(SIDE_JS)
        said += [f"{shot}: {p}" for p in found]
        said += [f"{shot}: {p}" for p in problems(measure(person, TABLE_PARTS))]
    return said


def with_a_computer(phones, game: str, options: dict[str, str], guests: int) -> tuple[Any, ...]:
    """Guests at a new table, the rest of its seats computers (they answer at once here)."""
    group = phones(guests, LANDSCAPE)
    url = group[0].open_table(game, options)
    for person in group[1:]:
        person.join(url)
    page = group[0].page
    page.goto(url)
    page.locator("#add-computer button").click()
    page.wait_for_url(url)
    bots = set()
    for person in group:
        person.page.goto(url)
        state = person.wait_version(0)
        bots = {seat["seat"] for seat in state["seats"] if seat.get("bot")}
    assert bots, "no computer at the table"
    return group, url, bots


def test_the_trump_choice_beside_the_felt(phones, artifacts):
    group, url, bots = with_a_computer(phones, "japanese_joker", {"points": "21"}, 1)
    version = match_states.play_until(
        table_id(url),
        lambda s: s.view(None)["phase"] == "trump" and s.to_act not in bots,
        limit=2000,
    )
    (person,) = group
    reopen(group, url, version)
    failures = look(person, artifacts, "japanese_joker-trump")
    assert not failures, "\n".join(failures)


def test_ten_bids_beside_the_felt(phones, artifacts):
    options = {"pulkas": "nines", "seats": "3"}
    group, url, bots = with_a_computer(phones, "classic_joker", options, 2)
    version = match_states.play_until(
        table_id(url),
        lambda s: s.view(None)["phase"] == "bid" and s.to_act is not None and s.to_act not in bots,
        limit=2000,
    )
    by_seat = reopen(group, url, version)
    person = by_seat[group[0].state["view"]["to_act"]]
    failures = look(person, artifacts, "classic_joker-bid")
    assert not failures, "\n".join(failures)


TRICK_CARD = 40  # the narrowest a trick's card may be, in CSS px (its rank and suit read)

# The trick's cards: their width beside the opponent's layout cards', and whether a tap at the
# corner where the rank and suit are printed (and at the middle) lands on the card.
TRICK_JS = """() => {
  const layout = document.querySelector(".seat-zone:not(.me) .layout .card");
  return [...document.querySelectorAll(".trick-zone .trick-slot .card")].map(card => {
    const r = card.getBoundingClientRect();
    const lands = (fx, fy) => {
      const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
      return Boolean(hit && card.contains(hit));
    };
    return {card: card.dataset.card, width: Math.round(r.width),
            layout: layout ? Math.round(layout.getBoundingClientRect().width) : 0,
            corner: lands(0.17, 0.12), middle: lands(0.5, 0.5)};
  });
}"""


def test_japanese_whists_trick_on_a_phone_on_its_side(phones, artifacts):
    from .test_phone_table import start, to_act

    group, url = start(phones, "japanese_whist", {"points": "5"}, 2)
    version = match_states.play_until(table_id(url), match_states.trick_half_played, seed=1)
    by_seat = reopen(group, url, version)
    failures = []
    for person in (to_act(by_seat), *[p for p in group if p is not to_act(by_seat)]):
        for size in SIZES:
            person.resize(size)
            shot = f"phone-side-japanese_whist-trick-{size['width']}x{size['height']}"
            person.page.screenshot(scale="css", path=str(artifacts / f"{shot}.png"))
            cards = person.page.evaluate(TRICK_JS)
            assert cards, "no card in the trick"
            for card in cards:
                small = card["width"] < max(card["layout"], TRICK_CARD)
                if small or not (card["corner"] and card["middle"]):
                    failures.append(f"{shot} ({person.name}): {card}")
    assert not failures, "\n".join(failures)
