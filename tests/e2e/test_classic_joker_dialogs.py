"""Classic Joker's joker dialogs and the score sheet's marks, by clicking in real Chromium.

Random deals rarely lead a joker, play one after the lead, or close a pulka with premia, so right
after the match starts the test puts an explicit deal in the match (the engine's ``from_deal``,
stored as ``Match.state`` with the version bumped, the match's seed kept for the deals after it)
and opens the table again on the four pages, which then take a fresh snapshot (docs/protocol.md).
The deal is deal 20 of the standard schedule: one card each, the last deal of pulka 3, with the
pulka's seven earlier deals on the sheet.

- CJ-10: N leads the red joker; the action panel offers want and take in each suit; N takes
  hearts, and the other pages show the call (the badge on the trick, the announcement).
- CJ-12 / CJ-15 / CJ-16: S plays the other joker after the lead; the panel offers only high and
  low; S plays it low, so W's ace of hearts takes the trick (16c; a low joker never wins). Each
  other choice gives another winner (high: S, by 16a; want hearts: N, by 16b), so the winner on
  every page checks both declarations.
- CJ-8 on the way: the dealer may not bid the one bid that makes the total 1.
- CJ-17 … CJ-25: the deal closes the pulka (W's 1 of 1 is CJ-17, the passes CJ-18, N's khishti
  CJ-20); every page's summary shows the deal's points, the premia of the one player who made
  every bid, and the sheet's marks (doubled, cancelled by the moshla, khishti) and totals exactly
  as ``score_deal`` / ``pulka_marks`` / ``pulka_scores`` compute them; so does the score sheet.
- Screenshots of both joker panels and of the summary at 1280 and 375 px in tests/e2e/artifacts/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction

from games.models import Match
from games.rules import get_game
from games.rules.classic_joker import pulka_marks, pulka_scores, score_deal

from .people import DESKTOP, PHONE, Person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A page that missed a broadcast learns the version from its next ping (every 25 s).
WAIT_MS = 45_000

N, E, S, W = range(4)
DEAL = 20  # standard schedule: 1 card each, the last deal of pulka 3 (deals 13…20)
DEALER = W  # so N bids first and leads (CJ-9)
HANDS = [["X1"], ["7H"], ["X2"], ["AH"]]
TRUMP_CARD = "8D"  # trump diamonds; nobody holds one
# Pulka 3 before this deal: per deal, (bid, taken) of N, E, S, W. S makes every bid (premia);
# N has a khishti in deal 17; the bids never add up to the cards (CJ-8).
EARLIER = {
    8: [(3, 3), (2, 1), (2, 2), (2, 2)],
    7: [(1, 2), (3, 3), (1, 1), (0, 1)],
    6: [(2, 2), (0, 0), (3, 3), (2, 1)],
    5: [(0, 1), (1, 1), (2, 2), (1, 1)],
    4: [(1, 0), (2, 2), (0, 0), (2, 2)],
    3: [(1, 1), (0, 1), (1, 1), (0, 0)],
    2: [(0, 0), (1, 1), (0, 0), (0, 1)],
}
# Deal 20 as clicked: N bids 1 and loses its joker (khishti), E and S pass and take nothing,
# W (the dealer) must bid 1 (0 would make the total 1) and takes the trick.
BIDS = [1, 0, 0, 1]
TAKEN = [0, 0, 0, 1]
BEFORE = [1000, 900, 800, 700]  # the match totals of pulkas 1 and 2


def pulka_rows() -> list[list[tuple[int, int, int]]]:
    rows = [[(cards, bid, taken) for bid, taken in row] for cards, row in EARLIER.items()]
    return [*rows, [(1, BIDS[s], TAKEN[s]) for s in range(4)]]


def put_deal(table_id: int) -> int:
    """Store the explicit deal as the match's state, one version on; returns that version.

    The match keeps its own seed, so the deal after this one is dealt as usual.
    """
    earlier = pulka_rows()[:-1]
    raw = [sum(score_deal(*row[s]) for row in earlier) for s in range(4)]
    deal = {
        "dealer": DEALER,
        "deal": DEAL,
        "hands": HANDS,
        "trump_card": TRUMP_CARD,
        "scores": [before + points for before, points in zip(BEFORE, raw, strict=True)],
        "pulka": [[list(cell) for cell in row] for row in earlier],
    }
    with transaction.atomic():
        match = Match.objects.select_for_update().get(table_id=table_id)
        state = get_game("classic_joker").from_deal(deal, match.options).to_dict()
        state["seed"] = match.state["seed"]
        match.state = state
        match.version += 1
        match.save(update_fields=["state", "version"])
        return match.version


DIAGNOSE_JS = """() => {
  const c = window.jokerTable && window.jokerTable.client;
  return {
    version: c && c.state ? c.state.version : null,
    pending: c && c.pending ? c.pending.action : null,
    connected: Boolean(c && c.connected),
    status: document.querySelector('#conn-status')?.textContent || '',
    error: document.querySelector('#play-error')?.textContent || '',
  };
}"""


def sync_all(by_seat: dict[int, Person], version: int) -> dict[str, Any]:
    """Every page at ``version`` or later; on a timeout, say where each page is."""
    state = None
    try:
        for person in by_seat.values():
            state = person.wait_version(version)
    except Exception as error:
        pages = {seat: p.page.evaluate(DIAGNOSE_JS) for seat, p in by_seat.items()}
        raise AssertionError(f"not every page reached version {version}: {pages}") from error
    return state


def name_of(person: Person, seat: int) -> str:
    return next(s["name"] for s in person.state["seats"] if s["seat"] == seat)


def card(person: Person, code: str):
    return person.page.locator(f'#match-area .mine button.card.legal[data-card="{code}"]')


def panel_buttons(person: Person) -> list[str]:
    """The labels of the action panel's choices, as a screen reader reads them."""
    return person.page.locator("#action-panel .choices button").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label') || n.textContent.trim())"
    )


def snap_panel(person: Person, artifacts, name: str) -> None:
    """The page at 1280 and 375 px, scrolled so the action panel and the trick above it show."""
    for size in (DESKTOP, PHONE):
        person.resize(size)  # the hand re-fans for the width
        person.page.locator("#action-panel").evaluate("n => n.scrollIntoView({block: 'end'})")
        person.page.screenshot(scale="css", path=str(artifacts / f"{name}-{size['width']}.png"))
    person.page.set_viewport_size(DESKTOP)


def sheet_cells(dialog) -> list[dict[str, Any]]:
    """The deal rows of a score sheet: deal number, and per seat bid/took, points and mark."""
    return dialog.locator("table.sheet tbody tr:not(.pulka-total)").evaluate_all(
        """rows => rows.map(tr => ({
          deal: Number(tr.querySelector('th.deal span').textContent),
          cells: [...tr.querySelectorAll('td')].map(td => ({
            detail: td.querySelector('.detail').textContent,
            points: Number(td.querySelector('.points').textContent),
            mark: ([...td.classList].find(c => c.startsWith('mark-')) || '').slice(5) || null,
            sign: td.querySelector('.mark') ? td.querySelector('.mark').textContent : null,
          })),
        }))"""
    )


def row_numbers(dialog, selector: str) -> list[int]:
    cells = dialog.locator(f"table.sheet {selector} td").all_inner_texts()
    return [int(text.split()[0]) for text in cells]


def test_cj_10_12_16_joker_dialogs_and_cj_22_25_sheet_marks_by_clicking(people, artifacts):
    group = people(4)
    for person in group:
        person.page.set_default_timeout(WAIT_MS)
    url = group[0].open_table("classic_joker")
    table_id = int(re.search(r"/tables/(\d+)/", url).group(1))
    for person in group[1:]:
        person.join(url)
    assert group[-1].wait_version(0)["status"] == "playing"  # the fourth seat starts the match

    # The explicit deal replaces the one just dealt; each page opens the table afresh.
    version = put_deal(table_id)
    by_seat: dict[int, Person] = {}
    for person in group:
        person.page.goto(url)
        by_seat[person.wait_version(version)["seat"]] = person
    assert sorted(by_seat) == [N, E, S, W]
    state = sync_all(by_seat, version)
    view = state["view"]
    assert (view["deal_number"], view["cards"], view["phase"], view["trump"]) == (20, 1, "bid", "D")
    for seat, person in by_seat.items():
        person.page.locator("#my-hand [data-card]").first.wait_for()
        assert person.hand() == HANDS[seat]

    # Bids: the dealer may not bid 0, which would make the total 1 (CJ-8).
    for seat, bid in enumerate(BIDS):
        page = by_seat[seat].page
        page.locator(f'#action-panel button[data-bid="{bid}"]').wait_for()
        if seat == DEALER:
            assert page.locator('#action-panel button[data-bid="0"]').is_disabled()
        page.locator(f'#action-panel button[data-bid="{bid}"]').click()
        version += 1
        state = sync_all(by_seat, version)
    assert state["view"]["bids"] == BIDS
    assert state["view"]["phase"] == "play"

    # CJ-10: N leads the joker; the panel asks want or take, and which suit.
    north = by_seat[N]
    card(north, "X1").click(position={"x": 6, "y": 12})
    panel = north.page.locator("#action-panel")
    panel.get_by_role("heading", name="Lead the joker: call a suit").wait_for()
    assert panel_buttons(north) == [
        *(f"Want {suit}" for suit in ("spades", "hearts", "diamonds", "clubs")),
        *(f"Take {suit}" for suit in ("spades", "hearts", "diamonds", "clubs")),
    ]
    assert north.state["version"] == version  # nothing is sent before the choice
    snap_panel(north, artifacts, "classic_joker-joker-lead")
    panel.get_by_role("button", name="Take hearts").click()
    version += 1
    state = sync_all(by_seat, version)
    lead = {"seat": N, "card": "X1", "call": "take", "suit": "H"}
    for seat, person in by_seat.items():
        assert person.state["view"]["trick"] == [lead]
        slot = person.page.locator(".trick-cards .trick-slot.leader")
        assert slot.locator(".call-badge").inner_text().split() == ["take", "♥"]
        assert "takes hearts" in slot.locator('[data-card="X1"]').get_attribute("aria-label")
        if seat != N:  # the others hear it
            person.page.wait_for_function(
                "() => document.querySelector('#announcer').textContent.includes('takes hearts')"
            )

    # CJ-15: E follows the called suit (its only card, so no dialog).
    east = by_seat[E]
    card(east, "7H").click(position={"x": 6, "y": 12})
    version += 1
    sync_all(by_seat, version)

    # CJ-12: S plays the other joker after the lead; the panel asks high or low, nothing else.
    south = by_seat[S]
    card(south, "X2").click(position={"x": 6, "y": 12})
    panel = south.page.locator("#action-panel")
    panel.get_by_role("heading", name="Play the joker high or low").wait_for()
    assert panel_buttons(south) == ["High", "Low"]
    assert south.state["version"] == version
    snap_panel(south, artifacts, "classic_joker-joker-follow")
    panel.get_by_role("button", name="Low", exact=True).click()
    version += 1
    sync_all(by_seat, version)
    for person in by_seat.values():
        assert person.state["view"]["trick"][2] == {"seat": S, "card": "X2", "call": "low"}
        badge = person.page.locator('.trick-cards .trick-slot:has([data-card="X2"]) .call-badge')
        assert badge.inner_text() == "low"

    # W's ace of hearts completes the trick and the deal, which closes pulka 3.
    card(by_seat[W], "AH").click(position={"x": 6, "y": 12})
    version += 1
    state = sync_all(by_seat, version)
    assert state["view"]["deal_number"] == 21

    # What the engine says the sheet must show (CJ-17 … CJ-25).
    rows = pulka_rows()
    points = [[score_deal(*cell) for cell in row] for row in rows]
    marks = pulka_marks(rows)
    for row, row_marks in zip(rows, marks, strict=True):
        for seat, (_, bid, taken) in enumerate(row):
            if row_marks[seat] is None and bid >= 1 and taken == 0:
                row_marks[seat] = "khishti"  # CJ-20, marked where premia left the cell alone
    totals = pulka_scores(rows)
    expected_cells = [
        {
            "deal": 13 + index,
            "cells": [
                {
                    "detail": f"{bid}/{taken}",
                    "points": points[index][seat],
                    "mark": marks[index][seat],
                    "sign": {"doubled": "×2", "cancelled": "✕", "khishti": "!", None: None}[
                        marks[index][seat]
                    ],
                }
                for seat, (_, bid, taken) in enumerate(row)
            ],
        }
        for index, row in enumerate(rows)
    ]
    flat = [mark for row in marks for mark in row]
    # The deal is built so that all three marks show: S doubled, the others cancelled (moshla,
    # one premia player), N's khishtis.
    assert flat.count("doubled") == 1 and flat.count("cancelled") == 3
    assert flat.count("khishti") == 2 and marks[-1][N] == "khishti"
    finals = [before + total for before, total in zip(BEFORE, totals, strict=True)]
    assert state["view"]["scores"] == finals

    for seat, person in by_seat.items():
        names = [name_of(person, s) for s in range(4)]
        # CJ-16: the low joker never wins; the highest heart (TAKE hearts) takes the trick.
        last = person.state["view"]["last_trick"]
        assert last["winner"] == W
        assert [p["card"] for p in last["plays"]] == ["X1", "7H", "X2", "AH"]
        summary = person.page.locator("#dialog-summary")
        summary.wait_for()
        assert "Deal 20 is over" in summary.inner_text()
        lines = summary.locator("table.summary-table tbody tr").evaluate_all(
            "rows => rows.map(r => [...r.children].map(c => c.textContent))"
        )
        assert lines == [
            [
                names[s],
                str(BIDS[s]),
                str(TAKEN[s]),
                f"{points[-1][s]:+d}",
                str(finals[s]),
            ]
            for s in range(4)
        ]
        assert f"Pulka 3 is complete. Premia: {names[S]}." in summary.inner_text()
        assert sheet_cells(summary) == expected_cells
        assert row_numbers(summary, "tr.pulka-total") == totals
        assert row_numbers(summary, "tfoot tr") == finals
        # A long summary opens at its title (the keyboard is on "Continue" at the bottom).
        assert summary.evaluate("d => d.scrollTop") == 0
        premia = summary.locator("tr.pulka-total td:has(.badge.premia)")
        assert premia.count() == 1
        assert premia.inner_text().split()[0] == str(totals[S])
        if seat == N:
            for size in (DESKTOP, PHONE):
                person.snap(artifacts, "classic_joker-premia-summary", size)
        summary.get_by_role("button", name="Continue").click()
        summary.wait_for(state="detached")

        # The last trick names each declaration and the winner.
        person.page.locator("#tool-last-trick").click()
        trick = person.page.locator("#dialog-last-trick")
        assert trick.locator(".last-trick li > span:last-child").all_inner_texts() == [
            f"{names[N]} (takes hearts)",
            names[E],
            f"{names[S]} (low)",
            names[W],
        ]
        assert f"{names[W]} took it." in trick.inner_text()
        person.close_dialogs()
        trick.wait_for(state="detached")

    # The score sheet at any time shows the same marks.
    north.page.locator("#tool-scores").click()
    sheet = north.page.locator("#dialog-sheet")
    sheet.wait_for()
    assert sheet_cells(sheet) == expected_cells
    assert row_numbers(sheet, "tfoot tr") == finals
