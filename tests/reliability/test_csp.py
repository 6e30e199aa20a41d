"""The Content-Security-Policy: every page is sent with it, in production too, and no page of
the site breaks it in a real browser (no inline script, no inline style, nothing from
elsewhere)."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys

import pytest
from django.test import Client

from tests.support import failure_report

from .conftest import ROOT

pytestmark = pytest.mark.django_db

POLICY_PARTS = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
]

PRODUCTION_HEADER = """
import django
from config.mode import use_default_settings
use_default_settings()
django.setup()
from django.test import Client
response = Client().get("/jsi18n/", secure=True, HTTP_HOST="joker.example.org")
print(response.status_code, response.headers.get("Content-Security-Policy"))
"""


def test_every_page_carries_the_policy():
    """Pass: the lobby, the login page and a 404 carry a policy with each of POLICY_PARTS."""
    client = Client()
    for url in ("/", "/accounts/login/", "/no-such-page/"):
        header = client.get(url).headers.get("Content-Security-Policy", "")
        for part in POLICY_PARTS:
            assert part in header, (url, part, header)


def test_production_mode_sends_the_policy(tmp_path):
    """Pass: under DJANGO_ENV=production a response (the script catalogue, which needs no
    collected static files) answers 200 with the policy."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL"}
    }
    env.update(
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="joker.example.org",
        VAR_DIR=str(tmp_path),
    )
    result = subprocess.run(
        [sys.executable, "-c", PRODUCTION_HEADER],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    status, header = result.stdout.strip().split(" ", 1)
    assert status == "200"
    for part in POLICY_PARTS:
        assert part in header


WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""


class Visitor:
    """One browser context that records every policy violation and console complaint."""

    def __init__(self, browser, server) -> None:
        self.context = browser.new_context(base_url=server.url, locale="en-US")
        self.context.add_init_script(WATCH_VIOLATIONS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.console: list[str] = []
        self.page.on("console", lambda line: self.console.append(f"{line.type}: {line.text}"))
        failure_report.watch_page("visitor", self.page, self.console)
        self.violations: list[str] = []
        self.page.on(
            "console",
            lambda message: (
                self.violations.append(message.text)
                if "Content Security Policy" in message.text
                else None
            ),
        )

    def visit(self, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status < 400, url
        assert response.headers.get("content-security-policy"), url
        self.page.wait_for_load_state("networkidle")
        self.check(url)

    def check(self, where: str) -> None:
        seen = self.page.evaluate("() => window.__cspViolations || []")
        assert not seen and not self.violations, (where, seen, self.violations)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_no_page_breaks_the_policy_in_a_real_browser(browser, e2e_server):
    """Pass: Chromium reports no policy violation on any page: the lobby, sign-up, log-in,
    password reset, help, ladder and the admin's login as a visitor; as a guest the lobby, a
    table's form, its waiting room, the live table of a started match, friends, wallet and a
    profile."""
    visitor = Visitor(browser, e2e_server)
    for url in (
        "/",
        "/accounts/signup/",
        "/accounts/login/",
        "/accounts/password/reset/",
        "/help/",
        "/ladder/",
        "/admin/login/",
    ):
        visitor.visit(url)

    host, guest = Visitor(browser, e2e_server), Visitor(browser, e2e_server)
    for person in (host, guest):
        person.visit("/")
        person.page.get_by_role("button", name="Play as guest").click()
        person.page.wait_for_load_state("networkidle")
        person.check("after becoming a guest")
    host.visit("/tables/new/japanese_joker/")
    host.page.get_by_role("button", name="Open the table").click()
    host.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    host.page.wait_for_load_state("networkidle")
    host.check("the waiting room")
    table_url = host.page.url
    guest.visit(table_url)
    guest.page.get_by_role("button", name="Take a seat").click()
    guest.page.wait_for_selector("#table-root")
    guest.page.wait_for_load_state("networkidle")
    guest.check("the live table")
    name = guest.page.locator(".player-name").inner_text()
    for url in ("/friends/", "/wallet/", f"/players/{name}/", "/"):
        guest.visit(url)
    for person in (visitor, host, guest):
        person.context.close()
