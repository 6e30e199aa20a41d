"""Score tables on a phone fit the screen (issue 41 § 2): a tournament's standings and a finished
match's tables no longer scroll sideways inside their box with nothing to say so.

At 360×640 (the narrowest phone), 375×667 and on its side at 844×390, in English and (at 360 px)
in Russian: an arena's page after its end (rank, player, score, the points per match; the
performance and the prize step aside on a phone, and a line says so) and a Swiss event's page in
its first round (its tiebreaks step aside), a Japanese Joker match's page (its scores by hand,
its seats' shares of the seed) and a classic Joker match's page for four (its score sheet, as
played and again with the widest scores a sheet can hold). Nothing on the page scrolls sideways,
the page included; every cell of a table that shows lies inside the screen's width; on the phone
on its side, every column is back. Screenshots:
tests/e2e/artifacts/phone-tables-<page>-<width>x<height>[-ru][-<table>].png.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from games.models import Seat
from tests.support.players import make_player
from tests.tournaments.test_pages import event, live_tables, lose, started, won_by
from tournaments.models import Tournament
from tournaments.realtime import standings_version

from .people import TOUCH_PHONE, Person
from .test_match_replay import play_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE_SIZES = [{"width": 360, "height": 640}, {"width": 375, "height": 667}]
SIDEWAYS = {"width": 844, "height": 390}

# What scrolls sideways (the page, or a box inside it), and the table cells that show (not
# hidden by the phone's rules) but lie beyond the screen's right edge, or its left.
WIDE_JS = """() => {
  const said = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > innerWidth + 1) said.push(`the page: ${root.scrollWidth} px`);
  for (const n of document.querySelectorAll("main *")) {
    const s = getComputedStyle(n);
    if ((s.overflowX === "auto" || s.overflowX === "scroll") && n.scrollWidth > n.clientWidth + 1)
      said.push(`${n.className} scrolls: ${n.scrollWidth} in ${n.clientWidth} px`);
  }
  for (const cell of document.querySelectorAll("main table th, main table td")) {
    const r = cell.getBoundingClientRect();
    if (!cell.getClientRects().length || r.width < 1) continue;
    const text = cell.textContent.trim().slice(0, 30);
    if (r.left < -0.5 || r.right > innerWidth + 0.5)
      said.push(`"${text}" lies at ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return said;
}"""
# A match's scores differ from run to run: the sheet must hold the widest any match can write.
# Each seat's cell of the first deal becomes a khishti at its harshest option (bid 9, took 0:
# -900 ∅), and each seat's first pulka total the lowest four such deals make (-3600 ★).
WIDEST_SHEET_JS = """() => {
  const row = document.querySelector(".match-sheet tr[data-deal]");
  for (const cell of row.querySelectorAll(".sheet-cell"))
    cell.innerHTML = '<span class="bid-taken">9/0</span> -900 <span class="mark">∅</span>';
  for (const cell of document.querySelectorAll(".match-sheet .pulka-total td"))
    cell.innerHTML = '<strong>-3600</strong> <span class="mark">★</span>';
}"""
# A tournament's page redraws its standings when its socket's first frame is newer than the
# page (tournament_live.js); it says the version it shows once drawn.
DRAWN_JS = "v => document.getElementById('tournament').dataset.version === v"


def _version(url: str) -> str:
    """The standings' version now, read as the socket's frames read it."""
    tournament_id = int(url.strip("/").rsplit("/", 1)[1])
    with ThreadPoolExecutor(1) as pool:  # the browser's loop holds this thread
        return pool.submit(_read_version, tournament_id).result()


def _read_version(tournament_id: int) -> str:
    try:
        return standings_version(Tournament.objects.get(pk=tournament_id))
    finally:
        connection.close()


# The tables, each pictured on its own too (phone-tables-<page>-<size>-<part>.png).
PARTS = {
    "standings": "#tournament-standings",
    "sheet": "section:has(.match-sheet)",
    "hands": "section:has(.match-hands)",
    "seed": "#entropy-seats",
}
# The standings' columns that show, by heading.
COLUMNS_JS = """() => [...document.querySelectorAll("#standings thead th")]
  .filter(th => th.getClientRects().length).map(th => th.textContent.trim())"""


def _events() -> tuple[int, int]:
    """An arena won and ended (with prizes) and a Swiss event in its first round, a result in."""
    players = [make_player(name) for name in ("alexandra_k", "bartholomew", "constantine")]
    arena = won_by(event("Final", entry_fee=100), players[0], players[1])
    swiss = started(
        event("Swiss cup", format=Tournament.Format.SWISS, rounds=2, duration_minutes=None),
        players,
    )
    (table,) = live_tables(swiss)
    lose(table, sorted(Seat.objects.filter(table=table).values_list("player_id", flat=True))[1])
    connection.close()
    return arena.pk, swiss.pk


@pytest.fixture(name="pages")
def score_pages(browser, e2e_server):
    """The four pages' addresses; a reader on an emulated phone."""
    # The services tell the sockets after commit (async_to_sync): not from the browser's loop.
    with ThreadPoolExecutor(1) as pool:
        arena, swiss = pool.submit(_events).result()
    jj = play_match(e2e_server, "japanese_joker", 2, {"points": 11}, "marathon_runner", 3)
    cj = play_match(e2e_server, "classic_joker", 4, {"pulkas": "short"}, "marathon_runner_c", 4)
    reader = Person(browser, e2e_server, "reader", viewport=PHONE_SIZES[0], device=TOUCH_PHONE)
    urls = {
        "arena": f"/tournaments/{arena}/",
        "swiss": f"/tournaments/{swiss}/",
        "japanese_joker": f"/matches/{jj}/",
        "classic_joker": f"/matches/{cj}/",
    }
    yield reader, urls
    errors = reader.errors
    reader.context.close()
    assert not errors, errors


def look(reader: Person, artifacts, name: str, url: str) -> list[str]:
    said = []
    for language, sizes in (("en", [*PHONE_SIZES, SIDEWAYS]), ("ru", PHONE_SIZES[:1])):
        reader.page.goto(url)
        reader.speak(language)
        for size in sizes:
            reader.page.set_viewport_size(size)
            reader.page.goto(url)
            if name in ("arena", "swiss"):  # a live page: drawn at the standings' last version
                reader.page.wait_for_function(DRAWN_JS, arg=_version(url))
            suffix = "" if language == "en" else f"-{language}"
            shot = f"phone-tables-{name}-{size['width']}x{size['height']}{suffix}"
            reader.page.screenshot(scale="css", path=str(artifacts / f"{shot}.png"), full_page=True)
            for part, selector in PARTS.items():  # each table closer, to look at
                if reader.page.locator(selector).count():
                    path = artifacts / f"{shot}-{part}.png"
                    reader.page.locator(selector).screenshot(scale="css", path=str(path))
            said += [f"{shot}: {p}" for p in reader.page.evaluate(WIDE_JS)]
            if name == "classic_joker":
                reader.page.evaluate(WIDEST_SHEET_JS)
                path = artifacts / f"{shot}-widest.png"
                reader.page.locator(PARTS["sheet"]).screenshot(scale="css", path=str(path))
                said += [f"{shot}, the widest scores: {p}" for p in reader.page.evaluate(WIDE_JS)]
            if name in ("arena", "swiss"):
                said += standings_problems(reader, shot, size)
    reader.speak("en")
    return said


def standings_problems(reader: Person, shot: str, size: dict[str, int]) -> list[str]:
    columns: list[Any] = reader.page.evaluate(COLUMNS_JS)
    note = reader.page.locator(".standings-aside")
    if size is SIDEWAYS:
        wanted = {"Performance", "Prize"} if "arena" in shot else {"Wins", "Sonneborn-Berger"}
        missing = wanted - set(columns)
        return [f"{shot}: the columns {missing} are missing on a wide screen"] if missing else []
    said = [] if note.is_visible() else [f"{shot}: nothing says that columns stepped aside"]
    if len(columns) < 4:
        said.append(f"{shot}: only {columns}")
    return said


def test_tournament_standings_fit_a_phone(pages, artifacts):
    reader, urls = pages
    failures = look(reader, artifacts, "arena", urls["arena"])
    failures += look(reader, artifacts, "swiss", urls["swiss"])
    assert not failures, "\n".join(failures)


def test_a_matchs_score_tables_fit_a_phone(pages, artifacts):
    reader, urls = pages
    failures = look(reader, artifacts, "japanese_joker", urls["japanese_joker"])
    failures += look(reader, artifacts, "classic_joker", urls["classic_joker"])
    assert not failures, "\n".join(failures)
