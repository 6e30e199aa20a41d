"""Issue 40 § 1: two players reach every match of an arena in real Chromium, wherever they are
when the next one is paired: one stays on the finished table, the other goes back to the
event's page (then to the ladder: any page of the site), one of them on a phone. Three matches
in a row, each paired by the site's own beat and worker, on the embedded default (``make run``:
SQLite, channels-lite, the SQLAlchemy broker) and on PostgreSQL and Redis (``scripts/serve.py``
with its Daphnes, its Celery worker and its beat).

Before the fix the player left on the finished table heard nothing (the table's socket does not
carry the player's news), the one who went to the event's page after the pairing found his own
table listed to "Watch", the next match was aborted as a no-show and the arena paired nobody
again: each arena played exactly one match.

Every look at the site's database goes through a process of its own (``manage.py shell`` with
the site's environment), the same way on both: the embedded site's SQLite file is not this
process's database.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.site import ServedSite

from .conftest import ROOT
from .people import PHONE, TOUCH_PHONE, Person
from .test_embedded_default import MakeRun
from .test_table_page import move

pytestmark = pytest.mark.e2e

TABLE_URL = re.compile(r"/tables/(\d+)/$")
ARENA = "Follow arena"
# What each page showed that passes too fast to catch between two looks (the next match may be
# paired a second after the last card): every tone it started (table/feel.js), and the result
# dialog as it opened, noted in the tab's sessionStorage with the page's address, which the
# next page of the tab can read.
NOTES = """
(() => {
  const note = (key, value) => {
    const list = JSON.parse(sessionStorage.getItem(key) || "[]");
    list.push(value);
    sessionStorage.setItem(key, JSON.stringify(list));
  };
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    note("tones", location.pathname);
    return start.apply(this, args);
  };
  new MutationObserver(() => {
    const dialog = document.getElementById("dialog-result");
    if (!dialog || !dialog.open || dialog.dataset.noted) return;
    dialog.dataset.noted = "1";
    const back = dialog.querySelector("#result-back");
    note("results", {
      page: location.pathname,
      next: dialog.querySelector("#next-match")?.textContent || null,
      back: back ? [back.textContent, back.getAttribute("href")] : null,
      rematch: Boolean(dialog.querySelector("#rematch-button")),
    });
  }).observe(document, { subtree: true, childList: true, attributes: true });
})();
"""
# The page has drawn version v of the match at ``table``, or has left that table.
AT_OR_GONE_JS = """([table, v]) => {
  if (location.pathname !== table) return true;
  const s = window.jokerTable && window.jokerTable.client.state;
  const area = document.getElementById("match-area");
  return Boolean(s && s.status !== "open" && s.version >= v && area
    && Number(area.dataset.version) >= v);
}"""
SITE_ENV = {
    "TURN_SECONDS": "120",
    "BANK_SECONDS": "120",
    "TOURNAMENT_TICK_SECONDS": "1",
    "BOT_MOVE_DELAY_SECONDS": "0.5",
}


def site_python(env: dict[str, str], code: str) -> Any:
    """Run ``code`` in a process of the site (its settings, its database): the JSON it prints
    last."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


MAKE_ARENA = """
import json
from datetime import timedelta
from django.utils import timezone
from tournaments.services.creation import tournament_create
arena = tournament_create(
    name="ARENA", game="japanese_joker", starts_at=timezone.now() + timedelta(hours=1),
    speed="normal", format="arena", rated=True, duration_minutes=30, options={"points": 11},
)
print(json.dumps(arena.pk))
""".replace("ARENA", ARENA)

MOVE = """
import json
from django.utils import timezone
from tournaments.models import Tournament
Tournament.objects.filter(pk=%d).update(%s=timezone.now())
print(json.dumps(True))
"""

# Random legal moves through the move service, in a process of the site (its publishes reach the
# pages live, as any player's move does), until one more move may end the match: the pages
# click that last stretch, so they are on the table when it ends. The matches' middles are not
# what this test is about, and clicking them through took minutes a match.
WALK = """
import json, random
from games.models import Match, Seat
from games.rules import get_game
from games.services import moves
rng = random.Random(%d)
while True:
    match = Match.objects.get(table_id=%d)
    state = get_game(match.game).from_dict(match.state)
    legal = state.view(state.to_act)["legal"] if state.to_act is not None else []
    if not legal or any(state.apply(action).result is not None for action in legal):
        break
    seat = Seat.objects.get(table=match.table_id, position=state.to_act, active=True)
    moves.match_act(
        table_id=match.table_id, player=seat.player, version=match.version,
        action=rng.choice(legal), client_action_id=f"walk-{match.version}",
    )
print(json.dumps(match.version))
"""

RECORD = """
import json
from games.models import Match, Seat
from social.models import Forfeit
from tournaments.models import Tournament, TournamentResult
arena = Tournament.objects.get(pk=%d)
results = {}
for name, place in TournamentResult.objects.filter(tournament=arena).order_by(
    "tournament_table__table__ended_at", "pk"
).values_list("player__name", "place"):
    results.setdefault(name, []).append(place)
tables = {}
for name, table in Seat.objects.filter(table__tournament_link__tournament=arena).order_by(
    "table_id"
).values_list("player__name", "table_id"):
    tables.setdefault(name, []).append(table)
print(json.dumps({
    "status": arena.status,
    "results": results,
    "tables": tables,
    "matches": list(Match.objects.filter(table__tournament_link__tournament=arena).values_list(
        "status", flat=True)),
    "forfeits": Forfeit.objects.filter(match__table__tournament_link__tournament=arena).count(),
}))
"""


class Site:
    """What the test needs of a site under test: its address and its environment."""

    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.url = url
        self.env = env


@pytest.fixture
def embedded_site(tmp_path, chromium_path) -> Iterator[Site]:
    served = MakeRun(tmp_path / "var", turn_seconds=120, grace_seconds=120)
    served.env.update(SITE_ENV)
    served.start()
    try:
        yield Site(served.url, served.env)
    finally:
        served.stop()
    log = "".join(served.lines)
    assert "Traceback" not in log, served.output()


@pytest.fixture
def served_site(tmp_path, chromium_path, transactional_db) -> Iterator[Site]:
    served = ServedSite(tmp_path, web_processes=2, **SITE_ENV)
    served.start()
    try:
        yield Site(served.url, served.env)
    finally:
        served.stop()
    assert not served.problems(), served.problems()


def _table(person: Person, not_this: str | None = None) -> str:
    """Wait until the person's page is at a table (another than ``not_this``) whose match is
    under way; its path."""
    page = person.page
    if not_this is None:
        expect(page).to_have_url(TABLE_URL)
    else:
        page.wait_for_url(lambda url: bool(TABLE_URL.search(url)) and not url.endswith(not_this))
    assert person.wait_version(0)["status"] == "playing"
    return TABLE_URL.search(page.url)[0]


def _play(people: list[Person], site: Site, table: str, rng: random.Random) -> None:
    """The match at ``table`` to its end: walked by the site's move service to its last stretch
    (the pages draw each move as it comes), then by clicking: each move waits until every page
    has drawn the last one, or has left for the next table (paired as soon as the match
    ended)."""
    version = site_python(site.env, WALK % (rng.randrange(1000), int(TABLE_URL.search(table)[1])))
    while True:
        states = []
        for person in people:
            # A move on the embedded default (SQLite, one writer) waited out 15 s on a loaded
            # machine (a full run beside another, 7 December 2026).
            person.page.wait_for_function(AT_OR_GONE_JS, arg=[table, version], timeout=60_000)
            if person.page.evaluate("() => location.pathname") == table:
                states.append(person.state)
        if not states or states[0]["status"] != "playing":
            return
        by_seat = {person.state["seat"]: person for person in people}
        move(by_seat[states[0]["view"]["to_act"]], rng)
        version = states[0]["version"] + 1


def _noted(person: Person, key: str) -> list[Any]:
    return person.page.evaluate(f"() => JSON.parse(sessionStorage.getItem('{key}') || '[]')")


def _saw_the_result_and_the_cue(person: Person, table: str, arena: int) -> None:
    """The finished table's page showed the result with "Next match…" and the way back to the
    event (no rematch), and played its cue before it went on to the next table."""
    results = [r for r in _noted(person, "results") if r["page"] == table]
    assert results, f"{person.name} saw no result at {table}: {_noted(person, 'results')}"
    (result,) = results
    assert result["next"] and result["next"].startswith("Next match…"), result
    assert result["back"] == ["Back to the tournament", f"/tournaments/{arena}/"], result
    assert not result["rematch"], result
    assert table in _noted(person, "tones"), _noted(person, "tones")


def three_matches(browser, site: Site) -> None:
    ana = Person(browser, site, "ana", viewport=PHONE, device=TOUCH_PHONE)
    beka = Person(browser, site, "beka")
    people = [ana, beka]
    try:
        for person in people:
            person.context.add_init_script(NOTES)
            person.sign_up(person.name)
            person.page.evaluate("() => localStorage.setItem('joker.table.sound', '1')")
        arena = site_python(site.env, MAKE_ARENA)
        event = f"/tournaments/{arena}/"
        for person in people:
            person.page.goto(event)
            person.page.locator("#join-form").get_by_role("button").click()
            expect(person.page.locator("#entry-status")).to_have_text("You are in this tournament.")
            expect(person.page.locator("#entry-follow")).to_contain_text("open by themselves")

        # The beat starts the event and pairs them: both event pages go to the table.
        site_python(site.env, MOVE % (arena, "starts_at"))
        first = {person.name: _table(person) for person in people}
        assert first["ana"] == first["beka"]
        rng = random.Random(40)
        _play(people, site, first["ana"], rng)

        # Both stay on the finished table: the result, "Next match…", and the next table opens
        # by itself, with the cue.
        second = {person.name: _table(person, not_this=first["ana"]) for person in people}
        assert second["ana"] == second["beka"]
        for person in people:
            _saw_the_result_and_the_cue(person, first["ana"], arena)

        # Away from the table while its match is played: beka follows the table's note to the
        # event's page, ana (the phone) opens the ladder; each is sent back to the table (the
        # socket says the match is being played as it opens), where nobody lost a move.
        beka.page.locator(".tournament-note a").click()
        ana.page.goto("/ladder/")
        for person in people:
            assert _table(person) == second["ana"]
        _play(people, site, second["ana"], rng)

        third = {person.name: _table(person, not_this=second["ana"]) for person in people}
        assert third["ana"] == third["beka"]
        for person in people:
            _saw_the_result_and_the_cue(person, second["ana"], arena)

        # The time runs out while the third match is played: it counts, nobody is paired again,
        # and the beat ends the event once it is counted.
        site_python(site.env, MOVE % (arena, "ends_at"))
        _play(people, site, third["ana"], rng)
        beka.page.goto(event)
        expect(beka.page.locator(".tournament-name .badge.status")).to_have_text("Finished")
        record = site_python(site.env, RECORD % arena)
        assert record["status"] == "finished", record
        assert record["matches"] == ["finished"] * 3, record
        assert record["forfeits"] == 0, record
        for name in ("ana", "beka"):
            assert len(record["results"][name]) == 3, record
            assert len(set(record["tables"][name])) == 3, record
        assert not ana.errors and not beka.errors, (ana.errors, beka.errors)
    finally:
        for person in people:
            person.context.close()


def test_three_arena_matches_in_a_row_on_the_embedded_default(browser, embedded_site):
    three_matches(browser, embedded_site)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_three_arena_matches_in_a_row_on_postgresql_and_redis(browser, served_site):
    three_matches(browser, served_site)
