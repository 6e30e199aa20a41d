"""A person at the site in the browser tests: one Chromium context with one page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.support import failure_report

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}
# A phone as Chromium emulates one: a dense screen, touch, the mobile viewport (issue 26).
TOUCH_PHONE = {"device_scale_factor": 3, "is_mobile": True, "has_touch": True}

STATE_JS = "() => (window.jokerTable && window.jokerTable.client.state) || null"
# The store has the version and the page has drawn it (the table's data-version).
VERSION_JS = """v => {
  const s = window.jokerTable && window.jokerTable.client.state;
  const area = document.getElementById("match-area");
  return Boolean(s && s.status !== "open" && s.version >= v && area
    && Number(area.dataset.version) >= v);
}"""
# The hand is fanned for the window's width (view.js fitHand), or there is none to fan.
FITTED_JS = """() => {
  const hand = document.getElementById("my-hand");
  const felt = document.querySelector("#match-area .felt");
  const window = `${innerWidth}x${innerHeight}`;
  return (!hand || !hand.children.length || hand.dataset.fit === String(innerWidth))
    && (!felt || felt.dataset.fit === window);
}"""
# Nothing in motion: no card gliding to its place, no trick on its way to its winner.
STILL_JS = "() => !document.querySelector('.gliding, .trick-zone.collecting')"


class Person:
    """One browser context: a guest with a page."""

    def __init__(
        self,
        browser,
        server,
        name: str,
        *,
        viewport: dict[str, int] = DESKTOP,
        device: dict[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.context = browser.new_context(
            viewport=viewport,
            locale="en-US",
            base_url=server.url,
            reduced_motion="no-preference",
            **(device or {}),
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.console: list[str] = []
        self.page.on("console", lambda line: self.console.append(f"{line.type}: {line.text}"))
        self.page.on("pageerror", lambda error: self.console.append(f"pageerror: {error}"))
        failure_report.watch_page(name, self.page, self.console)

    def become_guest(self) -> None:
        self.page.goto("/")
        self.page.get_by_role("button", name="Play as guest").click()
        self.page.wait_for_load_state()

    def sign_up(self, name: str) -> Person:
        """A registered player (1,000 Domino Coin to start), logged in."""
        page = self.page
        page.goto("/accounts/signup/")
        page.fill("#id_username", name)
        page.fill("#id_email", f"{name}@example.com")
        page.fill("#id_password1", "correct-horse-9")
        page.fill("#id_password2", "correct-horse-9")
        page.locator("main").get_by_role("button", name="Sign up").click()
        page.wait_for_url(lambda url: "/signup/" not in url)
        return self

    def speak(self, language: str) -> None:
        """What the language menu does: the language cookie, for the whole site."""
        origin = re.match(r"https?://[^/]+", self.page.url).group(0)
        self.context.add_cookies(
            [{"name": "django_language", "value": language, "url": f"{origin}/"}]
        )

    def open_table(self, game: str, options: dict[str, str] | None = None) -> str:
        self.page.goto(f"/tables/new/{game}/")
        for field, value in (options or {}).items():
            self.page.select_option(f"#id_{field}", value)
        self.page.get_by_role("button", name="Open the table").click()
        self.page.wait_for_url(re.compile(r"/tables/\d+/$"))
        return self.page.url

    def join(self, url: str) -> None:
        self.page.goto(url)
        self.page.get_by_role("button", name="Take a seat").click()

    @property
    def state(self) -> dict[str, Any]:
        return self.page.evaluate(STATE_JS)

    def wait_version(self, version: int, timeout: float | None = None) -> dict[str, Any]:
        self.page.wait_for_function(VERSION_JS, arg=version, timeout=timeout)
        return self.state

    def close_dialogs(self) -> None:
        dialog = self.page.locator("dialog[open]")
        if dialog.count():
            dialog.locator(".modal-actions button").last.click()

    def hand(self) -> list[str]:
        return self.page.locator("#my-hand [data-card]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.card)"
        )

    def resize(self, size: dict[str, int]) -> None:
        """The window at ``size``, once the hand is fanned for that width and nothing moves."""
        self.page.set_viewport_size(size)
        # The window's width, which a phone widens past the screen when the page is wider.
        self.page.wait_for_function(FITTED_JS)
        self.page.wait_for_function(STILL_JS)

    def snap(self, artifacts: Path, name: str, size: dict[str, int] = PHONE) -> None:
        """One more picture for people to look at (a dialog, a state of the table)."""
        self.resize(size)
        self.page.screenshot(scale="css", path=str(artifacts / f"{name}-{size['width']}.png"))
        self.page.set_viewport_size(DESKTOP)

    def screenshot(self, artifacts: Path, game: str) -> None:
        for size in (DESKTOP, PHONE):
            self.resize(size)
            self.page.screenshot(
                scale="css", path=str(artifacts / f"{game}-{size['width']}.png"), full_page=True
            )
            if size is PHONE:
                width = self.page.evaluate("document.documentElement.scrollWidth")
                assert width <= PHONE["width"], f"{game}: the page scrolls sideways ({width}px)"
        self.page.set_viewport_size(DESKTOP)
