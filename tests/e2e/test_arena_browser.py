"""An arena from its start to its podium in real Chromium (issue 29): two people who signed up
(one on a phone) join a scheduled arena through its page; when its time comes they are taken to
the same table, play the match to its end by clicking, and a visitor who keeps the event's page
open sees the standings change without reloading; when the time is up every page shows the
podium with the prizes.

Why: each part (the start, the pairing, the count, the end, the socket, the page's script) has
tests of its own; only a browser shows that they meet: that the frames reach the pages and that
the pages do what a person needs with them.

The beat. The server is Daphne alone (its Celery tasks run eagerly, nothing runs beat), so the
test runs the tournaments' tick itself, every ``TOURNAMENT_TICK_SECONDS`` (set to 1) as beat
would, in a process of its own with the server's environment. Not in this process: what the
tick publishes (the standings, "your match is ready") must reach the server's sockets, and the
server's channel layer is its own (``CHANNELS_PREFIX`` in its environment,
tests/e2e/conftest.py), which this process's layer does not reach. The tick runs while the event
starts and while it ends, and is held while the match is played, so that the pages are seen
between the match's count and the event's end.
The durations are the test's: the arena is made for an hour away and the shortest length the
settings allow, and the test moves its start to "now" in the database, then its end to "now"
once the match is under way, as time would: an arena's time may run out while a match is
played, and that match still counts (two alone in an event would otherwise meet again).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import Locator, WebSocket, expect

from games.models import Table
from tournaments.models import Entrant, Tournament
from tournaments.services.creation import tournament_create

from .conftest import ROOT, _server_settled
from .people import PHONE, TOUCH_PHONE, Person
from .test_table_page import move, sync_all

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE_URL = re.compile(r"/tables/(\d+)/$")
FEE = 10

# The beat's tournaments tick, as Celery beat runs it (config/settings/base.py,
# "tournaments-tick"), in a process with the server's database and channel layer: a line of
# counts per tick while it runs; "run" and "hold" on its input start and stop the ticks, each
# answered with the word once no tick is under way; the end of its input ends it.
BEAT = """
import json
import select
import sys

import django

django.setup()
from django.conf import settings

from tournaments import tasks

every = settings.CELERY_BEAT_SCHEDULE["tournaments-tick"]["schedule"]
ticking = False
while True:
    if select.select([sys.stdin], [], [], every if ticking else None)[0]:
        command = sys.stdin.readline().strip()
        if not command:
            break
        ticking = command == "run"
        print(command, flush=True)
    else:
        print(json.dumps(tasks.tick()), flush=True)
"""


class Heard:
    """The frames each of a page's tournament sockets received, as Playwright saw them on the
    wire. A socket's frames are recorded from the moment it opens (the listener is added while
    its opening is dispatched), and the sync API dispatches nothing between a look at the list
    and the wait that follows it, so no frame slips between the two."""

    def __init__(self, person: Person) -> None:
        self.page = person.page
        self.sockets: list[tuple[WebSocket, list[dict[str, Any]]]] = []
        self.page.on("websocket", self._opened)

    def _opened(self, socket: WebSocket) -> None:
        if "/ws/tournament/" not in socket.url:
            return
        frames: list[dict[str, Any]] = []
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))
        self.sockets.append((socket, frames))

    def mark(self) -> int:
        return len(self.sockets)

    def wait_first_frame(self, since: int) -> None:
        """Until a tournament socket opened after ``mark()`` gave ``since`` has its first frame
        (the server joins the socket to its groups before it sends that frame)."""
        while True:
            fresh = self.sockets[since:]
            if any(frames for _socket, frames in fresh):
                return
            if fresh:
                fresh[-1][0].wait_for_event("framereceived", timeout=15_000)
            else:
                self.page.wait_for_event("websocket", timeout=15_000)


@pytest.fixture(autouse=True)
def _patient_expect() -> Iterator[None]:
    """Assertions wait as long as the pages do (people.py: 15 s), not Playwright's 5 s: what
    they wait for passes through the beat, the server and a page's own reload."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)


class Beat:
    """The tick process, told when to run (see the module's docstring)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process

    def _say(self, command: str) -> list[dict[str, int]]:
        """Send the command; the counts of the ticks since the last one."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{command}\n")
        self.process.stdin.flush()
        ticks = []
        for line in self.process.stdout:
            if line.strip() == command:
                return ticks
            ticks.append(json.loads(line))
        raise AssertionError(f"the beat ended (exit {self.process.wait()})")

    def run(self) -> None:
        self._say("run")

    def hold(self) -> dict[str, int]:
        """Stop ticking; what the ticks since ``run`` did, summed."""
        done: dict[str, int] = {}
        for counts in self._say("hold"):
            for key, value in counts.items():
                done[key] = done.get(key, 0) + value
        return done


@pytest.fixture
def beat(e2e_server, tmp_path: Path, django_db_blocker) -> Iterator[Beat]:
    """The tournaments' tick, every second (a short setting) while it runs, in a process of its
    own with the server's environment."""
    errors = tmp_path / "beat.log"
    env = {**e2e_server.env, "TOURNAMENT_TICK_SECONDS": "1"}
    with open(errors, "wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-c", BEAT],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    try:
        yield Beat(process)
    finally:
        crashed = process.poll()
        process.communicate(timeout=30)  # the end of its input ends it
        _server_settled(django_db_blocker)
    output = errors.read_text(errors="replace")
    assert crashed is None and "Traceback" not in output, output


@pytest.fixture
def arena_people(browser, e2e_server, django_db_blocker) -> Iterator[dict[str, Person]]:
    """ana on a phone and beka at a desktop, both signed up; vera, a visitor who only looks."""
    made = {
        "ana": Person(browser, e2e_server, "ana", viewport=PHONE, device=TOUCH_PHONE),
        "beka": Person(browser, e2e_server, "beka"),
        "vera": Person(browser, e2e_server, "vera"),
    }
    try:
        for name in ("ana", "beka"):
            made[name].sign_up(name)
        yield made
    finally:
        errors = [f"{p.name}: {e}" for p in made.values() for e in p.errors]
        for person in made.values():
            person.context.close()
        _server_settled(django_db_blocker)
    assert not errors, errors


def standing(person: Person, name: str) -> Locator:
    """The player's row in the standings on the person's page."""
    return person.page.locator(f"#standings tbody tr[data-player='{name}']")


def join(person: Person, url: str, heard: Heard) -> None:
    """Open the event's page and press its Join button, then wait until the page's socket
    listens (its first frame): from then on the page hears when its player's match is ready."""
    page = person.page
    page.goto(url)
    button = page.locator("#join-form").get_by_role("button")
    expect(button).to_be_visible()
    expect(button).to_have_text(f"Join for ◎ {FEE}")
    since = heard.mark()
    button.click()
    expect(page.locator("#entry-status")).to_have_text("You are in this tournament.")
    expect(standing(person, person.name)).to_be_visible()
    heard.wait_first_frame(since)


def event_link(person: Person) -> Locator:
    """The table's note about its event, the link back to it in sight: on a phone the table
    fills the screen and its "More" tool brings back the page around it."""
    page = person.page
    if page.viewport_size["width"] <= PHONE["width"]:
        more = page.locator("#tool-more")
        expect(more).to_be_visible()
        if more.get_attribute("aria-expanded") != "true":
            more.click()
    note = page.locator(".tournament-note")
    expect(note).to_be_visible()
    link = note.get_by_role("link", name="Evening arena")
    expect(link).to_be_visible()
    return link


def play_to_the_end(by_seat: dict[int, Person], rng: random.Random) -> dict[str, Any]:
    """Legal moves through the pages, each by the seat to act, until the match is over; every
    page has drawn each move before the next is made. The final state."""
    state = sync_all(by_seat, 0)
    while state["status"] == "playing":
        move(by_seat[state["view"]["to_act"]], rng)
        state = sync_all(by_seat, state["version"] + 1)
    return state


def untouched(person: Person) -> Callable[[], bool]:
    """Mark the page's document; the returned check says whether it is still the same one (no
    reload, no navigation since)."""
    person.page.evaluate("() => { window.sameDocument = true; }")
    return lambda: person.page.evaluate("() => window.sameDocument === true")


def test_two_players_play_an_arena_from_its_start_to_the_podium(arena_people, beat, artifacts):
    ana, beka, vera = arena_people["ana"], arena_people["beka"], arena_people["vera"]
    arena = tournament_create(
        name="Evening arena",
        game="japanese_joker",
        starts_at=timezone.now() + timedelta(hours=1),
        speed=Table.Speed.NORMAL,  # the browser tests' server sets the normal clocks far out
        format=Tournament.Format.ARENA,
        rated=True,
        duration_minutes=settings.TOURNAMENT_ARENA_MINUTES[0],
        entry_fee=FEE,
        options={"points": 11},  # the shortest match
    )
    url = f"/tournaments/{arena.pk}/"

    # vera opens the event's page before anybody is in, and keeps it open.
    vera.page.goto(url)
    expect(vera.page.locator(".tournament-name .badge.status")).to_have_text("Upcoming")
    expect(vera.page.locator("#no-players")).to_be_visible()
    vera_unreloaded = untouched(vera)

    # The two join through the page; vera sees them come in, without a reload (the second
    # within TOURNAMENT_STANDINGS_SECONDS of the first: said when the pause is over).
    heard = {person.name: Heard(person) for person in (ana, beka)}
    join(ana, url, heard["ana"])
    expect(standing(vera, "ana")).to_be_visible()
    expect(standing(vera, "ana").locator("td.score")).to_have_text("0")
    join(beka, url, heard["beka"])
    expect(standing(vera, "beka")).to_be_visible()
    assert vera_unreloaded()

    # Its time comes: the beat starts it and pairs the two, whose pages go to their table.
    Tournament.objects.filter(pk=arena.pk).update(starts_at=timezone.now())
    beat.run()
    tables = set()
    for person in (ana, beka):
        page = person.page
        # (Not wait_for_url: the page's reload at the start may be cut short by this very move.)
        expect(page).to_have_url(TABLE_URL)
        tables.add(int(TABLE_URL.search(page.url).group(1)))
        assert person.wait_version(0)["status"] == "playing"
        event_link(person)
        expect(page.locator("#my-hand [data-card]")).to_have_count(3)  # dealt before the trump
        expect(page.locator("#my-hand [data-card]").first).to_be_visible()
    assert len(tables) == 1, tables
    (table,) = tables

    # vera's page started with the event (it reloads itself); opened again, it lists the table.
    expect(vera.page.locator("#tournament[data-status='running']")).to_be_attached()
    expect(vera.page.locator(".tournament-name .badge.status")).to_have_text("Running")
    expect(vera.page.locator("#tournament-when")).to_contain_text("Time left")
    assert beat.hold()["started"] == 1
    # The time runs out while the match is played: no new pairing, and this match counts.
    Tournament.objects.filter(pk=arena.pk).update(ends_at=timezone.now())
    vera.page.reload()
    playing = vera.page.locator(f"#tournament-tables .playing-entry[data-table='{table}']")
    expect(playing).to_be_visible()
    expect(playing.locator(".playing-players")).to_contain_text("ana")
    expect(playing.locator(".playing-players")).to_contain_text("beka")
    vera_unreloaded = untouched(vera)

    # The match, played to its end by clicking.
    by_seat = {person.state["seat"]: person for person in (ana, beka)}
    final = play_to_the_end(by_seat, random.Random(29))
    assert final["status"] == "finished", final["status"]
    (winner_seat,) = final["result"]["winners"]
    winner = by_seat[winner_seat]
    loser = by_seat[1 - winner_seat]
    for person, title in ((winner, "You won!"), (loser, "You lost")):
        result = person.page.locator("#dialog-result")
        expect(result).to_be_visible()
        expect(result).to_contain_text(title)

    # vera's page counts the match as it happens: 2 points to the winner, 0 to the loser, and
    # the table leaves the matches being played; the page was never reloaded.
    expect(standing(vera, winner.name).locator("td.score")).to_have_text("2")
    expect(standing(vera, winner.name).locator("td.marks")).to_have_text("2")
    expect(standing(vera, loser.name).locator("td.score")).to_have_text("0")
    expect(standing(vera, loser.name).locator("td.marks")).to_have_text("0")
    expect(vera.page.locator("#standings tbody tr").first).to_have_attribute(
        "data-player", winner.name
    )
    expect(vera.page.locator(f".playing-entry[data-table='{table}']")).to_have_count(0)
    assert vera_unreloaded()
    vera.page.screenshot(
        scale="css", path=str(artifacts / "arena-standings-live-1280.png"), full_page=True
    )

    # Both players close the result and go back to the event through the table's note.
    for person in (winner, loser):
        page = person.page
        page.locator("#dialog-result").get_by_role("button", name="Close").click()
        event_link(person).click()
        page.wait_for_url(f"**{url}")
        mine = page.locator("#standings tbody tr.me")
        expect(mine).to_be_visible()
        expect(mine).to_have_attribute("data-player", person.name)
        expect(mine.locator("td.score")).to_have_text("2" if person is winner else "0")

    # The beat ends the event (its time is up, its last match counted), and every page redraws
    # itself with the podium.
    beat.run()
    for person in (vera, winner, loser):
        page = person.page
        expect(page.locator(".tournament-name .badge.status")).to_have_text("Finished")
        podium = page.locator("#podium")
        expect(podium).to_be_visible()
        expect(podium.locator("li")).to_have_count(2)
        first = podium.locator("li[data-rank='1']")
        second = podium.locator("li[data-rank='2']")
        expect(first).to_be_visible()
        expect(first).to_have_attribute("data-player", winner.name)
        expect(second).to_have_attribute("data-player", loser.name)
        expect(first.locator(".score")).to_have_text("2")
        expect(second.locator(".score")).to_have_text("0")
    done = beat.hold()
    assert (done["finished"], done["tables"]) == (1, 0), done  # nobody was paired again
    prizes = dict(Entrant.objects.filter(tournament=arena).values_list("player__name", "prize"))
    assert sum(prizes.values()) == 2 * FEE and prizes[winner.name] > prizes[loser.name] > 0
    for person in (vera, winner, loser):
        for name in (winner.name, loser.name):
            coins = person.page.locator(f"#podium li[data-player='{name}'] .coins")
            expect(coins).to_be_visible()
            expect(coins).to_have_text(re.compile(rf"^◎ {prizes[name]}\b"))
    ana.page.screenshot(
        scale="css", path=str(artifacts / f"arena-podium-{PHONE['width']}.png"), full_page=True
    )
    vera.page.screenshot(scale="css", path=str(artifacts / "arena-podium-1280.png"), full_page=True)
    width = ana.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the podium page scrolls sideways on a phone ({width}px)"
