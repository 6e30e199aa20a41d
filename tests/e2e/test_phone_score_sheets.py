"""Classic Joker's score sheet on a phone, read as a person reads it (issue 41 § 2).

The end of a deal lies over the felt while the next seat already has its decision: the seat to
act next reads it at 375×667, at 360×640 and on its side at 844×390 with the decision and its
hand beside it. The sheet so far must show its latest deal and its totals whole (once it was
squeezed into what a footer left and cut mid-row), each seat's column must say whose it is
(four guests read "Guest-… | Guest-…"), and the dialog must not be a page to scroll. At the end
of a short match the score sheet shows its last pulka and its total without scrolling where
there is room (they hid below a fold at 55 % of the screen), and whole on a phone on its side;
in Russian too at 360×640.
Screenshots: tests/e2e/artifacts/phone-sheet-<situation>-<width>x<height>.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from .people import Person
from .phone import (
    LANDSCAPE,
    hand_ends,
    measure,
    phone_people,  # noqa: F401 (the fixture `phones`)
    play_a_card,
    problems,
    reach,
    reopen,
    table_id,
)
from .test_phone_table import SUMMARY_PARTS, last_move, start, to_act

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 375, "height": 667}, {"width": 360, "height": 640}, LANDSCAPE]

# What shows of the open dialog's sheet (the latest: the last deal's row): each row's cells as
# the dialog and the sheet's own scrolling leave them, whether they are whole and whether a tap
# at their middle lands on them (not on the sheet's heading or totals that stay over the rows);
# the seats' headings, whether their words are cut; the dialog's width beside the felt's, and
# whether the dialog itself scrolls.
SHEET_JS = """() => {
  const dialog = document.querySelector("dialog[open]");
  const wrap = dialog.querySelector(".sheet-wrap");
  const clip = [dialog, wrap].map(n => n.getBoundingClientRect());
  const seen = n => {
    const r = n.getBoundingClientRect();
    const left = Math.max(r.left, ...clip.map(c => c.left), 0);
    const right = Math.min(r.right, ...clip.map(c => c.right), innerWidth);
    const top = Math.max(r.top, ...clip.map(c => c.top), 0);
    const bottom = Math.min(r.bottom, ...clip.map(c => c.bottom), innerHeight);
    const whole = left <= r.left + 0.5 && right >= r.right - 0.5
      && top <= r.top + 0.5 && bottom >= r.bottom - 0.5;
    const hit = whole && document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {whole, reached: Boolean(hit && n.contains(hit))};
  };
  const deals = [...wrap.querySelectorAll("tbody tr:not(.pulka-total)")];
  const rows = [...wrap.querySelectorAll("tr")].map(tr => {
    const cells = [...tr.children].map(seen);  // a total's cells stay in sight, not its row
    return {text: tr.firstElementChild.textContent.trim(),
            latest: tr === deals[deals.length - 1], total: Boolean(tr.closest("tfoot")),
            pulka: tr.classList.contains("pulka-total"),
            whole: cells.every(c => c.whole), reached: cells.every(c => c.reached)};
  });
  const heads = [...wrap.querySelectorAll("th.seat-head")].map(th => ({
    text: th.textContent, cut: th.scrollWidth > th.clientWidth + 1
      || th.scrollHeight > th.clientHeight + 1, ...seen(th)}));
  const felt = document.querySelector("#match-area .felt").getBoundingClientRect();
  return {rows, heads, width: Math.round(dialog.getBoundingClientRect().width),
          felt: Math.round(felt.width), scrolls: dialog.scrollHeight > dialog.clientHeight + 1,
          wrapScrolls: wrap.scrollHeight > wrap.clientHeight + 1};
}"""


def read_sheet(person: Person) -> dict[str, Any]:
    return person.page.evaluate(SHEET_JS)


def sheet_problems(found: dict[str, Any], *, docked: bool) -> list[str]:
    said = []
    if docked and found["width"] < found["felt"] - 16:
        said.append(f"the summary is {found['width']} px wide on a felt of {found['felt']}")
    if found["scrolls"]:
        said.append("the dialog itself scrolls")
    must = [r for r in found["rows"] if r["latest"] or r["total"]]
    if docked:
        must += [r for r in found["rows"] if r["pulka"]]
    else:
        pulkas = [r for r in found["rows"] if r["pulka"]]
        must += pulkas[-1:]
    for row in must:
        if not (row["whole"] and row["reached"]):
            said.append(f"row {row['text']!r} is not whole in sight: {row}")
    for head in found["heads"]:
        if head["cut"] or not head["whole"] or not head["reached"]:
            said.append(f"the column {head['text']!r} is cut or hidden: {head}")
    names = [head["text"] for head in found["heads"]]
    if len(set(names)) != len(names):
        said.append(f"the columns do not tell the seats apart: {names}")
    return said


def test_a_deals_summary_shows_the_sheet_so_far_beside_ones_own_decision(phones, artifacts):
    """Four guests (the longest row of names); deal 3 of 4 in the first pulka ends."""
    group, url = start(phones, "classic_joker", {"pulkas": "nines", "seats": "4"}, 4)
    tid = table_id(url)
    version = reach(tid, lambda s: hand_ends(s) and s.view(None)["deal_number"] == 3)
    by_seat = reopen(group, url, version)
    play_a_card(to_act(by_seat))
    for person in group:
        person.wait_version(version + 1)
        person.page.locator("#dialog-summary").wait_for()
    nxt = to_act(by_seat)
    nxt.page.locator("#action-panel .choices button:not([disabled])").first.wait_for()
    failures = []
    for size in SIZES:
        nxt.resize(size)
        name = f"phone-sheet-summary-{size['width']}x{size['height']}"
        nxt.page.screenshot(scale="css", path=str(artifacts / f"{name}.png"))
        found = read_sheet(nxt)
        failures += [f"{name}: {p}" for p in sheet_problems(found, docked=True)]
        failures += [f"{name}: {p}" for p in problems(measure(nxt, SUMMARY_PARTS))]
    # And as a computer's screen shows it (pictured only): Continue beside the title there too.
    nxt.resize({"width": 1280, "height": 800})
    nxt.page.screenshot(scale="css", path=str(artifacts / "phone-sheet-summary-1280x800.png"))
    assert not failures, "\n".join(failures)


def test_the_final_score_sheet_shows_the_last_pulka_and_the_total(phones, artifacts):
    """Three guests, a short match (two pulkas of four nines) played to its last card."""
    group, url = start(phones, "classic_joker", {"pulkas": "short", "seats": "3"}, 3)
    version = reach(table_id(url), last_move)
    by_seat = reopen(group, url, version)
    play_a_card(to_act(by_seat))
    person = group[0]
    person.wait_version(version + 1)
    person.page.locator("#dialog-result .modal-actions").wait_for()
    person.close_dialogs()
    person.page.locator("#tool-scores").click()
    person.page.locator("#dialog-sheet").wait_for()
    failures = []
    for size in SIZES:
        person.resize(size)
        name = f"phone-sheet-final-{size['width']}x{size['height']}"
        person.page.screenshot(scale="css", path=str(artifacts / f"{name}.png"))
        found = read_sheet(person)
        failures += [f"{name}: {p}" for p in sheet_problems(found, docked=False)]
        if size["height"] > 600 and found["wrapScrolls"]:
            failures.append(f"{name}: the sheet scrolls although the screen has room for it")
        failures += [
            f"{name}: {p}" for p in problems(measure(person, ["dialog[open] .modal-title"]))
        ]
    # In Russian (longer words: "Гость-…") on the narrowest phone, the page opened again.
    person.speak("ru")
    person.page.set_viewport_size(SIZES[1])
    person.page.goto(url)
    person.page.locator("#dialog-result .modal-actions").wait_for()
    person.close_dialogs()
    person.page.locator("#tool-scores").click()
    person.page.locator("#dialog-sheet").wait_for()
    person.resize(SIZES[1])
    name = "phone-sheet-final-360x640-ru"
    person.page.screenshot(scale="css", path=str(artifacts / f"{name}.png"))
    failures += [f"{name}: {p}" for p in sheet_problems(read_sheet(person), docked=False)]
    person.speak("en")
    assert not failures, "\n".join(failures)
