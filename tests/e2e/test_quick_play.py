"""Quick play in a real browser (issue 28 § 2): the lobby's "Play now" panel.

a. A guest on a 360×640 phone presses Play now for a free casual pool, computers to fill the
   table after 10 s, and is at a playing table within about 12 s. The fill needs the pairing
   pass (``games.tasks.pools_sweep``), which Celery beat runs every ``POOL_SWEEP_SECONDS``; the
   browser tests' server is Daphne alone (its tasks run eagerly, and nothing runs beat). So on
   PostgreSQL with Redis this test runs the task every second, as beat would, in a process of
   its own with the server's environment (its database, its channel layer); on the embedded
   default the server's channel layer lives in its process, where no other process can reach
   it, so the test starts the site as ``make run`` does (``scripts/serve.py``: Daphne, a
   worker and beat) and beat runs the pass.
b. Two registered players, each in a browser of their own, press Play now for the same rated
   pool: within 5 s of the second press both are at the same table, its match playing.
c. The panel at 360×640, in English, Georgian and Russian, for a guest and for a registered
   player: every control shows, inside the screen, at least 44 px tall to tap, nothing scrolls
   sideways; the Leave button shows only while the player waits.

Also: a table not everyone came to is called off, and the lobby says so and queues the player
again; the table page told so goes back to the lobby, which says why; a visitor's Play now
makes them a guest, who then waits in the pools they ticked.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from .conftest import ROOT, _postgres, _server_settled
from .people import TOUCH_PHONE, Person
from .phone import phone_people  # noqa: F401 (the fixture `phones`)
from .test_embedded_default import _served
from .test_newcomer_pages import sign_up

# These tests touch the database only through the site, so they run on the embedded default
# too, where the server has a database of its own: there they are not ``django_db`` (which
# would skip them, tests/e2e/conftest.py). On PostgreSQL the server serves the test database,
# which pytest-django makes only for ``django_db`` tests, and each test's rows go with its flush.
pytestmark = [pytest.mark.e2e, *([pytest.mark.django_db(transaction=True)] if _postgres() else [])]

PHONE = {"width": 360, "height": 640}
TABLE_URL = re.compile(r"/tables/(\d+)/$")
PLAYING_JS = (
    "() => Boolean(window.jokerTable && window.jokerTable.client.state"
    " && window.jokerTable.client.state.status === 'playing')"
)
LIVE = "#play-now[data-live='yes']"  # the panel has the lobby socket's snapshot

# Each control of the panel that shows: its box, whether it lies on the screen (scrolled as it
# is) and whether a tap on its centre reaches it. A checkbox is tapped through its label, so
# the label is what is measured.
CONTROLS_JS = """() => {
  const root = document.getElementById("play-now");
  const shown = n => n.checkVisibility({visibilityProperty: true});
  const nodes = [...root.querySelectorAll("label.pn-game, label.pn-chip, label.pn-check,"
    + " select, button")].filter(shown);
  return nodes.map(n => {
    const r = n.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {node: n.id || n.className || n.tagName, text: n.innerText.trim().slice(0, 30),
            left: r.left, right: r.right, height: r.height,
            onScreen: r.top >= 0 && r.bottom <= innerHeight,
            reached: Boolean(hit && (n.contains(hit) || hit.contains(n)))};
  });
}"""
SIDEWAYS_JS = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def shown(person: Person, selector: str) -> bool:
    """Drawn at all, as a person sees it: a box (``hidden`` must really hide)."""
    return person.page.locator(selector).evaluate(
        "n => n.checkVisibility({visibilityProperty: true})"
    )


def choose(person: Person, games: list[str], speeds: list[str], **more: Any) -> None:
    """Tick exactly these games and speeds (and stakes and kinds, for a registered player);
    ``fill``: the computers' wait, "" for never."""
    page = person.page
    page.locator(LIVE).wait_for(state="attached")
    groups = {"pn_game": games, "pn_speed": speeds}
    if "stakes" in more:
        groups["pn_stake"] = more["stakes"]
    if "kinds" in more:
        groups["pn_kind"] = more["kinds"]
    for name, values in groups.items():
        for box in page.locator(f"#pn-form input[name='{name}']").all():
            box.set_checked(box.get_attribute("value") in values)
    if "fill" in more:
        page.select_option("#pn-fill-after", more["fill"])


def play_now(person: Person) -> float:
    """Press Play now; when, on the test's clock."""
    person.page.locator("#pn-go").click()
    return time.monotonic()


def at_a_playing_table(person: Person, timeout_ms: float) -> int:
    page = person.page
    page.wait_for_url(TABLE_URL, timeout=timeout_ms)
    page.wait_for_function(PLAYING_JS, timeout=timeout_ms)
    return int(TABLE_URL.search(page.url).group(1))


# --- a. A guest, computers after 10 s ------------------------------------------------------------


# The pairing pass, as beat runs it: ``games.tasks.pools_sweep`` every POOL_SWEEP_SECONDS, in a
# process of its own with the server's environment (its database, its channel layer).
SWEEP = """
import time

import django

django.setup()
from django.conf import settings

from games import tasks

while True:
    tasks.pools_sweep()
    print("pass", flush=True)
    time.sleep(settings.POOL_SWEEP_SECONDS)
"""


@pytest.fixture
def sweeping_site(e2e_server, tmp_path, django_db_blocker) -> Iterator[Any]:
    """A site whose pairing pass runs (see the module's docstring, a.)."""
    if not (_postgres() and settings.REDIS_URL):
        # Turns and banks of a minute: nothing is played for the guest while the test looks.
        yield from _served(tmp_path / "var", 60, 60)
        return
    server = e2e_server
    log = tmp_path / "sweep.log"
    with open(log, "wb") as out:
        sweeper = subprocess.Popen(
            [sys.executable, "-c", SWEEP], cwd=ROOT, env=server.env, stdout=out, stderr=out
        )
    try:
        yield server
    finally:
        crashed = sweeper.poll()
        sweeper.terminate()
        sweeper.wait(timeout=30)
        _server_settled(django_db_blocker)
    output = log.read_text(errors="replace")
    assert crashed is None and "Traceback" not in output, output
    assert "pass" in output, output


def test_a_guest_on_a_phone_plays_now_with_computers_after_10_s(browser, sweeping_site, artifacts):
    guest = Person(browser, sweeping_site, "guest", viewport=PHONE, device=TOUCH_PHONE)
    try:
        guest.become_guest()
        choose(guest, ["japanese_joker"], ["normal"], fill="10")
        pressed = play_now(guest)
        guest.page.locator("#pn-leave").wait_for()  # the ticket came: waiting
        assert shown(guest, "#pn-waiting") and shown(guest, "#pn-leave")
        assert not shown(guest, "#pn-form")
        waiting = guest.page.locator("#pn-pools").inner_text()
        assert "Japanese Joker" in waiting and "Casual" in waiting, waiting
        assert "10 s" in guest.page.locator("#pn-fill-note").inner_text()
        guest.page.screenshot(scale="css", path=str(artifacts / "play-now-waiting-360.png"))

        table = at_a_playing_table(guest, 15_000)
        took = time.monotonic() - pressed
        assert took < 13, took  # 10 s, then the next pass (each second) and the page's load
        state = guest.page.evaluate("() => window.jokerTable.client.state")
        assert state["table"] == table and state["seat"] is not None
        computers = [seat for seat in state["seats"] if seat["seat"] != state["seat"]]
        assert computers and all(seat["bot"] for seat in computers), state["seats"]
        assert not guest.errors, guest.errors
    finally:
        guest.context.close()


# A socket of the lobby's, opened by hand on another page: it joins a pool and never goes to
# the table it is paired at.
JOIN_AND_STAY_AWAY_JS = """pool => new Promise(resolve => {
  const socket = new WebSocket(`ws://${location.host}/ws/lobby/`);
  window.awaySocket = socket;
  socket.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "lobby") socket.send(JSON.stringify({type: "pool_join", pools: [pool]}));
    if (message.type === "pool_ticket" || message.type === "error") resolve(message);
  };
})"""


def test_a_table_not_everyone_came_to_is_called_off_and_the_lobby_says_so(browser, sweeping_site):
    """One player waits on the lobby; the other joins from elsewhere and never opens the table.
    When POOL_CONNECT_SECONDS (15) have passed, the pass calls the table off: the one who came
    waits again, at the head of the queue, and the lobby says why."""
    pool = "japanese_whist/normal/0/casual"
    came, away = (
        Person(browser, sweeping_site, name, viewport=PHONE, device=TOUCH_PHONE)
        for name in ("came", "away")
    )
    try:
        for person in (came, away):
            person.become_guest()
        choose(came, ["japanese_whist"], ["normal"], fill="")
        play_now(came)
        came.page.locator("#pn-leave").wait_for()
        away.page.goto("/help/")
        answer = away.page.evaluate(JOIN_AND_STAY_AWAY_JS, pool)
        assert answer["type"] == "pool_ticket", answer

        state = came.page.locator("#pn-state")
        state.filter(has_text="Game found").wait_for(timeout=5_000)
        notice = came.page.locator("#pn-notice")
        notice.filter(has_text="Not everyone came").wait_for(timeout=25_000)
        assert notice.inner_text() == "Not everyone came; you are back in the queue."
        assert state.inner_text() == "Looking for a game…"
        assert shown(came, "#pn-leave") and not shown(came, "#pn-form")
        assert came.page.url.endswith("/")
        came.page.locator("#pn-leave").click()
        came.page.locator("#pn-go").wait_for()
        assert not came.errors and not away.errors, (came.errors, away.errors)
    finally:
        for person in (came, away):
            person.context.close()


def test_the_table_page_told_called_off_goes_back_to_the_lobby_with_the_notice(
    browser, e2e_server, django_db_blocker
):
    """The table socket's ``called_off`` on the table page (static/js/table.js): back to the
    lobby, which says why. (The frame is handed to the page's client as the socket would: the
    server says it only at a quick-play table whose match has not started.)"""
    guest = Person(browser, e2e_server, "off", viewport=PHONE, device=TOUCH_PHONE)
    try:
        guest.become_guest()
        page = guest.page
        page.locator("form[data-practice] button").first.click()  # Play the computer
        page.wait_for_url(TABLE_URL)
        page.wait_for_function(PLAYING_JS)
        table = int(TABLE_URL.search(page.url).group(1))
        page.evaluate(
            "t => window.jokerTable.client.apply({type: 'called_off', table: t, url: '/'})", table
        )
        page.wait_for_url(re.compile(r"/$"))
        notice = page.locator("#pn-notice")
        notice.wait_for()
        assert notice.inner_text() == "Not everyone came; the game is called off."
        assert not guest.errors, guest.errors
    finally:
        guest.context.close()
        if _postgres():
            _server_settled(django_db_blocker)


# --- b. Two players, one rated pool --------------------------------------------------------------


@pytest.fixture
def two_players(browser, e2e_server, django_db_blocker) -> Iterator[list[Person]]:
    made = [sign_up(Person(browser, e2e_server, name), name) for name in ("quin", "quill")]
    yield made
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    for person in made:
        person.context.close()
    if _postgres():
        _server_settled(django_db_blocker)
    assert not errors, errors


def test_two_players_in_one_rated_pool_meet_at_one_table_within_5_s(two_players, artifacts):
    first, second = two_players
    for person in two_players:
        person.page.goto("/")
        choose(person, ["japanese_joker"], ["fast"], stakes=["0"], kinds=["rated"])
    first.page.screenshot(scale="css", path=str(artifacts / "play-now-desktop.png"))
    play_now(first)
    first.page.locator("#pn-leave").wait_for()  # waiting
    assert "Looking for a game" in first.page.locator("#pn-state").inner_text()
    # Issue 41: a rated pool said nothing but "Looking for a game… 0:39".
    assert shown(first, "#pn-people-only")
    assert (
        "no computer ever takes a rated seat" in first.page.locator("#pn-people-only").inner_text()
    )
    assert "Nobody else is waiting in your choice" in first.page.locator("#pn-others").inner_text()
    assert shown(first, "#pn-widen")

    pressed = play_now(second)
    tables = [at_a_playing_table(person, 5_000) for person in two_players]
    assert time.monotonic() - pressed < 5
    assert tables[0] == tables[1]
    for person in two_players:
        state = person.page.evaluate("() => window.jokerTable.client.state")
        assert state["status"] == "playing" and state["seat"] is not None
        assert [seat["bot"] for seat in state["seats"]] == [False, False]


def test_two_players_in_the_two_seat_classic_pool_meet_at_a_two_seat_table(two_players):
    """Classic Joker is offered at 4, 3 and 2 seats, each its own pool: the one who ticked 3
    and 2 and the one who ticked 2 meet at a two-seat table, and nobody at four seats."""
    first, second = two_players
    for person, variants in zip(
        two_players, (["classic_joker:3", "classic_joker:2"], ["classic_joker:2"]), strict=True
    ):
        person.page.goto("/")
        choose(person, variants, ["normal"], stakes=["0"], kinds=["casual"], fill="")
    titles = first.page.locator("#pn-form .pn-game-title").all_inner_texts()
    assert "Classic Georgian Joker, 2 players" in titles, titles
    assert "Classic Georgian Joker, 3 players" in titles and "Japanese Joker" in titles, titles
    play_now(first)
    first.page.locator("#pn-leave").wait_for()
    waiting = first.page.locator("#pn-pools").inner_text()
    assert "2 players" in waiting and "3 players" in waiting, waiting
    play_now(second)
    tables = [at_a_playing_table(person, 5_000) for person in two_players]
    assert tables[0] == tables[1]
    for person in two_players:
        state = person.page.evaluate("() => window.jokerTable.client.state")
        assert state["game"] == "classic_joker" and len(state["seats"]) == 2, state
        assert [seat["bot"] for seat in state["seats"]] == [False, False]


def test_a_visitor_who_presses_play_now_waits_as_a_guest(browser, e2e_server, django_db_blocker):
    """No player yet: the button says it makes a guest, and once the page is back the guest
    waits in the pools ticked before."""
    visitor = Person(browser, e2e_server, "visitor", viewport=PHONE, device=TOUCH_PHONE)
    try:
        page = visitor.page
        page.goto("/")
        choose(visitor, ["japanese_whist"], ["relaxed"], fill="")
        go = page.locator("#pn-go")
        assert go.inner_text() == "Play now as a guest"
        go.click()
        page.locator("#pn-leave").wait_for()
        assert page.locator(".nav-player .badge").inner_text() == "guest"
        waiting = page.locator("#pn-pools").inner_text()
        assert "Japanese Whist" in waiting and "Relaxed" in waiting, waiting
        page.locator("#pn-leave").click()
        page.locator("#pn-go").wait_for()
        assert page.locator("#pn-go").inner_text() == "Play now"
        assert not visitor.errors, visitor.errors
    finally:
        visitor.context.close()
        if _postgres():
            _server_settled(django_db_blocker)


# --- c. The panel on a 360 px phone --------------------------------------------------------------


def controls_fit(person: Person) -> list[dict[str, Any]]:
    controls = person.page.evaluate(CONTROLS_JS)
    assert controls
    for control in controls:
        assert control["left"] >= -0.5 and control["right"] <= PHONE["width"] + 0.5, control
        assert control["height"] >= 44 - 0.5, control
        assert control["reached"] or not control["onScreen"], control  # nothing covers it
    width, inner = person.page.evaluate(SIDEWAYS_JS)
    assert width <= inner, (width, inner)
    return controls


@pytest.mark.parametrize("language", ["en", "ka", "ru"])
def test_the_panel_fits_a_360_phone_and_leave_shows_only_while_waiting(
    phones, browser, e2e_server, django_db_blocker, artifacts, language
):
    (guest,) = phones(1, PHONE)
    guest.speak(language)
    page = guest.page
    page.goto("/")
    page.locator(LIVE).wait_for(state="attached")
    panel = page.locator("#play-now")
    # The panel leads the page: above the open tables.
    assert panel.bounding_box()["y"] < page.locator("#tables-heading").bounding_box()["y"]
    for selector in (
        "#pn-form",
        "label.pn-game >> nth=0",
        "label.pn-chip >> nth=0",
        "#pn-fill-after",
        "#pn-strength",
        "#pn-go",
    ):
        assert shown(guest, selector), selector
    assert not shown(guest, "#pn-waiting") and not shown(guest, "#pn-leave")
    # A guest is offered free casual pools only: no stake or rated ticks.
    assert page.locator("input[name='pn_stake'], input[name='pn_kind']").count() == 0
    controls = controls_fit(guest)
    if language == "en":
        texts = " ".join(control["text"] for control in controls)
        for words in ("Japanese Joker", "Fast", "Normal", "Relaxed", "Play now"):
            assert words in texts, texts
    page.screenshot(scale="css", path=str(artifacts / f"play-now-360-{language}.png"))

    choose(guest, ["japanese_joker"], ["fast", "relaxed"], fill="")  # wait for people
    play_now(guest)
    page.locator("#pn-leave").wait_for()
    assert shown(guest, "#pn-leave") and shown(guest, "#pn-elapsed")
    assert not shown(guest, "#pn-form") and not shown(guest, "#pn-go")
    assert not shown(guest, "#pn-fill-note")  # no computers asked for
    assert shown(guest, "#pn-people-only") and shown(guest, "#pn-others")
    page.wait_for_function("() => document.getElementById('pn-elapsed').textContent >= '0:01'")
    controls_fit(guest)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(scale="css", path=str(artifacts / f"play-now-waiting-360-{language}.png"))

    page.locator("#pn-leave").click()
    page.locator("#pn-go").wait_for()
    assert not shown(guest, "#pn-leave") and not shown(guest, "#pn-waiting")
    assert shown(guest, "#pn-form")
    # "Widen my choice": out of the queue, the form back as it was chosen, to tick more.
    play_now(guest)
    page.locator("#pn-widen").click()
    page.locator("#pn-go").wait_for()
    assert shown(guest, "#pn-form") and not shown(guest, "#pn-waiting")
    assert page.locator("#pn-form input[name='pn_speed'][value='relaxed']").is_checked()

    # A registered player has stakes, rated or casual, and their rating beside each game; the
    # computers' choice shows only with Casual ticked.
    player = Person(browser, e2e_server, f"pn-{language}", viewport=PHONE, device=TOUCH_PHONE)
    try:
        sign_up(player, f"pn{language}")
        player.speak(language)
        player.page.goto("/")
        player.page.locator(LIVE).wait_for(state="attached")
        assert player.page.locator("input[name='pn_stake']").count() == len(settings.POOL_STAKES)
        assert shown(player, "label.pn-chip:has(input[name='pn_kind'][value='rated'])")
        assert shown(player, "[data-rating-for] >> nth=0")
        choose(player, ["japanese_joker"], ["normal"], stakes=["0", "25"], kinds=["rated"])
        assert not shown(player, "#pn-fill")
        choose(player, ["japanese_joker"], ["normal"], stakes=["0"], kinds=["rated", "casual"])
        assert shown(player, "#pn-fill") and shown(player, "#pn-fill-after")
        controls_fit(player)
        player.page.screenshot(
            scale="css", path=str(artifacts / f"play-now-player-360-{language}.png"), full_page=True
        )
        assert not player.errors, player.errors
    finally:
        player.context.close()
        if _postgres():
            _server_settled(django_db_blocker)
