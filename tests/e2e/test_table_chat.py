"""Two registered players chat at their table (a preset phrase, a free-text line shown as text,
never as HTML), one reports the other's line, and a moderator finds the report, with the chat
log, in the admin (issue 17)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .conftest import ROOT
from .people import Person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYING_JS = (
    "() => window.jokerTable && window.jokerTable.client.state"
    " && window.jokerTable.client.state.status === 'playing'"
)
PASSWORD = "correct-horse-9"
LINE = "<b>nice</b> trick & good luck"


def _sign_up(person: Person, name: str) -> None:
    page = person.page
    page.goto("/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator('form[action*="signup"] button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/$"))


def _moderator(server) -> None:
    """A superuser in the server's own database (its file on SQLite, the test one on PostgreSQL)."""
    env = {**server.env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD}
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "createsuperuser",
            "--noinput",
            "--username",
            "moderator",
            "--email",
            "moderator@example.com",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )


def test_two_players_chat_and_a_report_reaches_the_admin(browser, e2e_server, artifacts):
    alice = Person(browser, e2e_server, "alice")
    bob = Person(browser, e2e_server, "bob")
    admin = Person(browser, e2e_server, "admin")
    try:
        _sign_up(alice, "chat-alice")
        _sign_up(bob, "chat-bob")
        url = alice.open_table("japanese_joker")
        bob.join(url)
        for person in (alice, bob):
            # The waiting room turns into the match by itself (a reload): wait for it there,
            # as a person would, rather than navigate while it reloads.
            person.page.wait_for_function(PLAYING_JS)
            person.page.locator("#chat").wait_for()

        # A preset phrase, for everyone at the table.
        alice.page.locator("#chat [data-phrase='good_luck']").click()
        bob.page.locator("#chat-log li", has_text="Good luck").wait_for()
        alice.page.locator("#chat-log li", has_text="Good luck").wait_for()

        # Free text: shown exactly as typed, as text.
        bob.page.fill("#chat-text", LINE)
        bob.page.locator("#chat-form button").click()
        line = alice.page.locator("#chat-log li", has_text="nice")
        line.wait_for()
        assert line.locator(".chat-text").inner_text() == LINE
        assert alice.page.locator("#chat-log b").count() == 0
        alice.page.locator("#chat").screenshot(
            scale="css", path=str(artifacts / "table-chat-panel.png")
        )

        # Muting hides the chat, for this player only, and stays muted on the next visit.
        alice.page.locator("#chat-mute").click()
        assert alice.page.locator("#chat-log").is_hidden()
        alice.page.reload()
        alice.page.locator("#chat-muted-note").wait_for()
        alice.page.locator("#chat-mute").click()

        # Report bob's line.
        alice.page.locator("#chat-log li", has_text="nice").locator(".chat-report").click()
        alice.page.fill("#chat-report-reason", "rude to the table")
        alice.page.get_by_role("button", name="Send the report").click()
        alice.page.locator("#chat-report-done").wait_for()

        # The moderator finds it in the admin, with the chat log.
        _moderator(e2e_server)
        admin.page.goto("/admin/login/?next=/admin/social/report/")
        admin.page.fill("#id_username", "moderator")
        admin.page.fill("#id_password", PASSWORD)
        admin.page.locator("input[type=submit]").click()
        row = admin.page.locator("#result_list tbody tr", has_text="chat-bob")
        row.wait_for()
        assert "chat-alice" in row.inner_text()
        row.locator("th a, td a").first.click()
        log = admin.page.locator("table.chat-log")
        log.wait_for()
        assert LINE in log.inner_text() and "Good luck" in log.inner_text()
        assert "rude to the table" in admin.page.content()
        admin.page.screenshot(scale="css", path=str(artifacts / "admin-report.png"), full_page=True)
        assert not alice.errors and not bob.errors
    finally:
        for person in (alice, bob, admin):
            person.context.close()
