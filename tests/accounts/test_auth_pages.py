"""allauth's pages in the site's frame and words (issue 12, § 2): every page it renders comes
with the site's navigation and styles, labelled fields and full-size buttons, and says "Log in"
and "Log out" where the navigation does (never "Sign In" or "Sign Out"). Its behaviour stays
allauth's (tests/accounts/test_guests_and_signup.py covers the flows)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from tests.support.players import client_for

pytestmark = pytest.mark.django_db

FOR_VISITORS = [
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/password/reset/key/done/",
    "/accounts/password/reset/key/zz-not-a-key/",
    "/accounts/confirm-email/not-a-key/",
    "/accounts/confirm-email/",
    "/accounts/inactive/",
]
FOR_PLAYERS = [
    "/accounts/logout/",
    "/accounts/email/",
    "/accounts/password/change/",
    "/accounts/reauthenticate/",
]
# The library's words for what the navigation calls "Log in", "Log out" and "Sign up".
LIBRARY_WORDS = re.compile(r"\b(?:[Ss]ign[ -]?(?:[Ii]n|[Oo]ut)|Sign Up|Signup)\b")


def _in_the_sites_frame(html: str) -> None:
    assert 'class="site-header"' in html and "/static/css/site.css" in html
    assert re.search(r'<main id="main" class="page auth-page[^"]*">', html)
    # The library's own bare menu ("Menu:", "Messages:") is gone.
    assert "Menu:" not in html
    main = html.split('<main id="main"', 1)[1].split("</main>", 1)[0]
    text = re.sub(r"<[^>]+>", " ", main)
    assert not LIBRARY_WORDS.search(text), LIBRARY_WORDS.search(text)
    for button in re.findall(r"<button\b[^>]*>", main):
        assert 'class="button' in button, button
    for field in re.findall(
        r'<input\b(?![^>]*type="(?:hidden|checkbox|radio)")[^>]*\bid="([^"]+)"', main
    ):
        assert f'<label for="{field}">' in main, field


@pytest.mark.parametrize("path", FOR_VISITORS)
def test_a_visitor_sees_every_allauth_page_in_the_sites_frame(path):
    page = Client().get(path)
    assert page.status_code == 200, path
    _in_the_sites_frame(page.content.decode())


@pytest.mark.parametrize("path", FOR_PLAYERS)
def test_a_player_sees_every_allauth_page_in_the_sites_frame(alice, path):
    page = client_for(alice).get(path)
    assert page.status_code == 200, path
    html = page.content.decode()
    _in_the_sites_frame(html)
    if path != "/accounts/reauthenticate/":  # a step on the way, not an account page
        assert 'aria-label="Account"' in html  # the account pages' own links


def test_log_in_is_called_log_in_in_the_page_the_button_and_the_title():
    html = Client().get("/accounts/login/").content.decode()
    assert "<title>Log in · Joker</title>" in html
    assert "<h1>Log in</h1>" in html
    assert re.search(r'<button class="button wide"\s+type="submit">Log in</button>', html)
    # The third way in, a guest, is on the log-in page too.
    assert 'action="/guest/"' in html


def test_a_wrong_password_is_told_in_the_sites_frame(alice):
    page = Client().post("/accounts/login/", {"login": "alice", "password": "wrong-horse"})
    assert page.status_code == 200
    html = page.content.decode()
    _in_the_sites_frame(html)
    assert re.search(
        r'<div class="message error" role="alert"><p>The username and/or password', html
    )


def test_the_password_reset_mail_leads_to_a_styled_page_that_changes_the_password(alice):
    client = Client()
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    [message] = mail.outbox
    link = re.search(r"https?://[^/]+(/accounts/password/reset/key/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    html = form.content.decode()
    _in_the_sites_frame(html)
    done = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link,
        {"password1": "new-tbilisi-42", "password2": "new-tbilisi-42"},
        follow=True,
    )
    _in_the_sites_frame(done.content.decode())
    alice.user.refresh_from_db()
    assert alice.user.check_password("new-tbilisi-42")


@pytest.mark.parametrize(("code", "words"), [("ka", "შესვლა"), ("ru", "Войти")])
def test_the_log_in_page_speaks_the_readers_language(code, words):
    html = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=code).content.decode()
    assert f"<h1>{words}</h1>" in html


def test_the_messages_after_logging_in_and_out_use_the_same_words(alice):
    client = Client()
    page = client.post(
        "/accounts/login/", {"login": "alice", "password": "correct-horse-9"}, follow=True
    )
    assert "Logged in as alice." in page.content.decode()
    page = client.post("/accounts/logout/", follow=True)
    html = page.content.decode()
    assert "You have logged out." in html and "signed out" not in html
