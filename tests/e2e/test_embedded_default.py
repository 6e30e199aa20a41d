"""The embedded default, started exactly as ``make run`` starts it (no DATABASE_URL, no
REDIS_URL): what the Celery worker does reaches the open pages live, with no reload.

- Japanese Joker: a turn clock runs out and the worker's automatic move arrives on both pages;
  then the player to act leaves the page, their absence bank runs out and the end arrives (an
  abort: nobody had made a move of their own, docs/rules/README.md § 0.6).
- Classic Joker: once every seat has bid, a player leaves on their turn and the computer that
  takes the seat moves; its move, played by the worker, arrives on the other three pages.

Short clocks come from the environment, as an operator would set them.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import failure_report

from .conftest import ROOT, _free_port
from .people import Person
from .test_ladder_pages import begin

pytestmark = pytest.mark.e2e

MARK_JS = "() => { window.__noReload = true; }"
MARKED_JS = "() => window.__noReload === true"


class MakeRun:
    """``scripts/serve.py`` with the environment of a fresh checkout (what ``make run`` runs)."""

    def __init__(self, var_dir: Path, turn_seconds: int = 4, grace_seconds: int = 3) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_ENV"}
        }
        self.env.update(
            {
                "VAR_DIR": str(var_dir),
                "TURN_SECONDS": str(turn_seconds),
                "ABSENCE_GRACE_SECONDS": str(grace_seconds),
                "BOT_MOVE_DELAY_SECONDS": "0.5",
            }
        )
        self.lines: list[str] = []
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> MakeRun:
        subprocess.run(
            [sys.executable, "manage.py", "migrate_all", "-v0"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        self.process = subprocess.Popen(
            [sys.executable, "scripts/serve.py", "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._collect, daemon=True).start()
        failure_report.watch_log(
            f"make run :{self.port}",
            lambda: "".join(self.lines),
            lambda: self.process is not None and self.process.poll() is None,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            ready = any("celery@" in line and "ready." in line for line in self.lines)
            if ready and any("beat: Starting" in line for line in self.lines):
                try:
                    with urllib.request.urlopen(f"{self.url}/", timeout=2) as page:
                        if page.status == 200:
                            return self
                except OSError:
                    pass
            time.sleep(0.3)
        raise AssertionError(f"make run did not come up:\n{self.output()}")

    def _collect(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def output(self) -> str:
        return "".join(self.lines[-80:])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def _served(var_dir: Path, turn_seconds: int, grace_seconds: int) -> Iterator[MakeRun]:
    server = MakeRun(var_dir, turn_seconds, grace_seconds).start()
    yield server
    server.stop()
    for marker in ("Traceback", "JSONDecodeError"):
        assert marker not in "".join(server.lines), server.output()


@pytest.fixture
def make_run(tmp_path, chromium_path) -> Iterator[MakeRun]:
    """Turns of 4 s and banks of 10 s. The creator's waiting room reloads into the match when
    it starts, away from the table until the new page's socket opens: on a loaded machine that
    took longer than a bank of 3 s, and the creator forfeited before the test began."""
    yield from _served(tmp_path / "var", 4, 10)


@pytest.fixture
def unhurried_run(tmp_path, chromium_path) -> Iterator[MakeRun]:
    """Turns and absence banks of a minute: the moves clicked on the pages are never played by
    the clock first, and a page that reconnects as the match starts forfeits nothing."""
    yield from _served(tmp_path / "var", 60, 60)


def _guests(browser, server: MakeRun, count: int) -> list[Person]:
    people = []
    for index in range(count):
        person = Person(browser, server, f"p{index}")
        person.become_guest()
        people.append(person)
    return people


def _seat(people: list[Person], url: str) -> dict[int, Person]:
    for person in people[1:]:
        person.join(url)
    by_seat = {}
    for person in people:
        state = person.wait_version(0)
        assert state["status"] == "playing"
        by_seat[state["seat"]] = person
        person.page.evaluate(MARK_JS)
    return by_seat


def test_a_turn_clock_and_a_forfeit_from_the_worker_reach_the_open_pages(
    browser, make_run, artifacts
):
    people = _guests(browser, make_run, 2)
    by_seat = _seat(people, people[0].open_table("japanese_joker"))
    idle = by_seat[0].state["view"]["to_act"]

    # Nobody moves: the worker's sweep plays the automatic move when the clock runs out.
    for person in by_seat.values():
        state = person.wait_version(1, timeout=40_000)  # the turn, then the bank, then the sweep
        assert state["seats"][idle]["timeouts"] == 1
        assert person.page.evaluate(MARKED_JS), "the page reloaded to see the move"

    # The player to act now closes the page: their bank runs out and the end arrives. Nobody
    # had made a move of their own (an automatic move is not one): the match is aborted.
    away = state["view"]["to_act"]
    stays = by_seat[1 - away]
    by_seat[away].page.goto("about:blank")
    stays.page.wait_for_function(
        "() => { const s = window.jokerTable.client.state; return s.status === 'aborted'; }",
        timeout=30_000,
    )
    result = stays.state["result"]
    assert result["reason"] == "aborted" and result["forfeited"] == [away]
    assert stays.page.evaluate(MARKED_JS)
    stays.page.screenshot(scale="css", path=str(artifacts / "embedded-forfeit-arrived.png"))
    for person in people:
        person.context.close()


def test_a_computer_players_move_reaches_the_open_pages(browser, unhurried_run):
    people = _guests(browser, unhurried_run, 4)
    by_seat = _seat(people, people[0].open_table("classic_joker"))
    begin(list(by_seat.values()), random.Random(4))  # before that, leaving would abort
    state = by_seat[0].state
    leaver = state["view"]["to_act"]
    version = state["version"]
    by_seat[leaver].page.evaluate("() => window.jokerTable.client.leave()")
    # The forfeit (version + 1), then the computer's own move in that seat (version + 2), made
    # by the worker after its pause and published through the embedded channel layer.
    for seat, person in by_seat.items():
        if seat == leaver:
            continue
        after = person.wait_version(version + 2)
        assert after["seats"][leaver]["bot"] is True
        assert person.page.evaluate(MARKED_JS)
    for person in people:
        person.context.close()
