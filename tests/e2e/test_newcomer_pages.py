"""What a newcomer sees first, in a real browser (issue 12, § 2–3).

- Screenshots of the landing page (a match being played, an open table) and of the auth pages
  (log in, sign up, password reset, log out, e-mail addresses, change password) at 1280×720,
  1366×768 and 375 px land in ``tests/e2e/artifacts/``.
- At 375 px no page outside the table scrolls sideways (``scrollWidth`` ≤ ``innerWidth``): the
  landing page, the lobby, the auth pages, a profile, the leaderboard, friends and the 404;
  signed in as a player whose name is 24 wide letters, the most a name may be.
- A friend request arrives live on the lobby: a toast and the count in the navigation.
"""

from __future__ import annotations

import re

import pytest

from .people import Person
from .test_languages import speak

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [
    {"width": 1280, "height": 720},
    {"width": 1366, "height": 768},
    {"width": 375, "height": 740},
]
PHONE = SIZES[-1]
PASSWORD = "correct-horse-9"
LONG = "W" * 24  # the widest letter, as many as a name may have (accounts/validators.py)
SIDEWAYS_JS = "() => [document.documentElement.scrollWidth, window.innerWidth]"
# What sticks out past the right edge, or holds text wider than itself, to say in a failure
# where the overflow comes from.
STICKING_OUT_JS = """() => [...document.querySelectorAll("body *")]
  .filter(n => n.getBoundingClientRect().right > window.innerWidth + 0.5
    || (getComputedStyle(n).overflowX === "visible" && n.scrollWidth > n.clientWidth + 1
        && n.clientWidth > 0))
  .slice(0, 5)
  .map(n => `${n.tagName.toLowerCase()}.${n.className}:`
    + ` ${Math.round(n.getBoundingClientRect().right)}px`)"""


def sign_up(person: Person, name: str) -> Person:
    page = person.page
    page.goto("/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name.lower()}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main").get_by_role("button", name="Sign up").click()
    page.wait_for_url(lambda url: "/signup/" not in url)
    return person


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def shoot(person: Person, artifacts, name: str) -> None:
    for size in SIZES:
        person.page.set_viewport_size(size)
        # The page laid out and painted at the new size: two animation frames after the resize.
        person.page.evaluate(
            "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
        )
        person.page.screenshot(
            scale="css",
            path=str(artifacts / f"{name}-{size['width']}x{size['height']}.png"),
            full_page=True,
        )


def no_sideways_scroll(person: Person, path: str) -> None:
    person.page.set_viewport_size(PHONE)
    response = person.page.goto(path)
    assert response is not None
    person.page.wait_for_load_state()
    width, inner = person.page.evaluate(SIDEWAYS_JS)
    if width > inner:
        culprits = person.page.evaluate(STICKING_OUT_JS)
        raise AssertionError(
            f"{path} scrolls sideways at 375 px: {width}px > {inner}px, {culprits}"
        )


@pytest.fixture
def newcomers(browser, e2e_server, people):
    """A visitor with a fresh browser, once a match is being played and a table is open."""
    p0, p1, p2 = people(3)
    url = p0.open_table("japanese_joker")
    p1.join(url)
    p1.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    p2.page.goto("/tables/new/japanese_whist/")
    p2.page.check('input[name="visibility"][value="password"]')
    p2.page.fill("#id_password", "secret1")
    p2.page.get_by_role("button", name="Open the table").click()
    p2.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    waiting = p2.page.url
    visitor = Person(browser, e2e_server, "visitor")
    visitor.played, visitor.waiting = _path(url), _path(waiting)
    yield visitor
    visitor.context.close()
    assert not visitor.errors, visitor.errors


def test_the_landing_and_auth_pages_pictured_at_three_sizes(newcomers, artifacts):
    visitor = newcomers
    page = visitor.page
    page.goto("/")
    # One line saying what the site is, and three ways in, each drawn as the others are.
    assert page.locator(".hero h1").inner_text() == (
        "Georgian trick-taking games, live in your browser"
    )
    ways = page.locator(".hero-actions .button")
    assert ways.all_inner_texts() == ["Play as guest", "Sign up", "Log in"]
    looks = ways.evaluate_all(
        "nodes => nodes.map(n => { const s = getComputedStyle(n);"
        " return [s.backgroundColor, s.color, s.fontWeight]; })"
    )
    assert len(set(map(tuple, looks))) == 1, looks
    assert looks[0][0] == "rgb(255, 255, 255)"  # light on the green banner, not green on green
    # (The server's database is the session's: other tests' tables may be listed too.)
    watch = page.locator(f'#being-played a[href="{visitor.played}"]')
    assert "Watch" in watch.inner_text()
    # The lobby script redraws the list from its socket, icons included: a lock, drawn in SVG.
    page.wait_for_selector("#tables[data-live='yes']", state="attached")
    lock = page.locator(f'#tables li:has(a[href="{visitor.waiting}"]) .vis')
    assert lock.get_attribute("aria-label") == "Password table"
    assert lock.locator("svg.icon").is_visible()
    assert "🔒" not in page.locator("#tables").inner_text()
    assert page.locator(f'#tables a[href="{visitor.played}"]').count() == 0
    shoot(visitor, artifacts, "landing")
    for language in ("ka", "ru"):
        speak(visitor, language)
        page.goto("/")
        shoot(visitor, artifacts, f"landing-{language}")
        page.goto("/accounts/login/")
        shoot(visitor, artifacts, f"auth-login-{language}")
    speak(visitor, "en")
    page.goto("/")

    # Watching: the spectator's view of the match being played opens from the list.
    page.set_viewport_size(SIZES[0])
    watch.click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_function("() => Boolean(window.jokerTable && window.jokerTable.client.state)")
    # A spectator: the match is drawn, and no hand of anyone's is this page's to play.
    assert page.evaluate("() => window.jokerTable.client.state.seat") is None

    for path, name in [
        ("/accounts/login/", "auth-login"),
        ("/accounts/signup/", "auth-signup"),
        ("/accounts/password/reset/", "auth-password-reset"),
    ]:
        page.goto(path)
        shoot(visitor, artifacts, name)
    page.goto("/accounts/login/")
    assert page.title() == "Log in · Joker"
    assert page.locator("main").get_by_role("button", name="Log in").is_visible()

    sign_up(visitor, "newcomer")
    for path, name in [
        ("/accounts/email/", "auth-email"),
        ("/accounts/password/change/", "auth-password-change"),
        ("/accounts/logout/", "auth-logout"),
    ]:
        page.goto(path)
        shoot(visitor, artifacts, name)
    page.goto("/no/such/page/")
    shoot(visitor, artifacts, "not-found")


def test_no_page_outside_the_table_scrolls_sideways_at_375_px(
    browser, e2e_server, people, artifacts
):
    [guest] = people(1)
    guest.open_table("japanese_joker")  # a table in the lobby, with its creator's name
    visitor = Person(browser, e2e_server, "visitor")
    long_named = sign_up(Person(browser, e2e_server, "long"), LONG)
    asker = sign_up(Person(browser, e2e_server, "asker"), "M" * 24)
    try:
        pages = [
            "/",
            "/accounts/login/",
            "/accounts/signup/",
            "/accounts/password/reset/",
            "/accounts/password/reset/done/",
            "/friends/",
            "/ladder/",
            "/ladder/japanese_joker/",
            "/tournaments/",
            f"/players/{LONG}/",
            "/help/",
            "/no/such/page/",
        ]
        for path in pages:
            no_sideways_scroll(visitor, path)
        # Georgian words are long, Russian ones longer than English: the same pages in both.
        for language in ("ka", "ru"):
            speak(visitor, language)
            for path in pages:
                no_sideways_scroll(visitor, path)

        asker.page.goto("/friends/")
        asker.page.fill("#id_username", LONG)
        asker.page.get_by_role("button", name="Send request").click()
        asker.page.wait_for_load_state()
        for path in [
            *pages,
            "/wallet/",
            "/tables/new/japanese_joker/",
            "/tournaments/new/classic_joker/",
            "/accounts/email/",
            "/accounts/password/change/",
            "/accounts/logout/",
        ]:
            no_sideways_scroll(long_named, path)
        long_named.page.goto("/friends/")
        long_named.page.screenshot(
            scale="css", path=str(artifacts / "friends-long-names-375.png"), full_page=True
        )
        long_named.page.goto("/")
        long_named.page.screenshot(
            scale="css", path=str(artifacts / "lobby-long-name-375.png"), full_page=True
        )
        for person in (visitor, guest):
            no_sideways_scroll(person, "/")
    finally:
        errors = [f"{p.name}: {e}" for p in (visitor, long_named, asker) for e in p.errors]
        for person in (visitor, long_named, asker):
            person.context.close()
    assert not errors, errors


def test_a_friend_request_arrives_live_with_a_toast_and_a_count(
    browser, e2e_server, people, artifacts
):
    nino = sign_up(Person(browser, e2e_server, "nino"), "nino")
    levan = sign_up(Person(browser, e2e_server, "levan"), "levan")
    try:
        nino.page.goto("/")
        nino.page.wait_for_selector("#tables[data-live='yes']", state="attached")
        badge = nino.page.locator("#nav-friend-requests")
        assert badge.is_hidden()

        levan.page.goto("/friends/")
        levan.page.fill("#id_username", "nino")
        levan.page.get_by_role("button", name="Send request").click()

        toast = nino.page.locator("#notifications .notification")
        toast.wait_for()
        assert "levan wants to be your friend." in toast.inner_text()
        assert badge.is_visible() and badge.locator(".nav-count-number").inner_text() == "1"
        nino.page.screenshot(scale="css", path=str(artifacts / "friend-request-toast-1280.png"))
        toast.get_by_role("link", name="See the request").click()
        nino.page.wait_for_url(re.compile(r"/friends/$"))
        assert nino.page.get_by_role("button", name="Accept").is_visible()
    finally:
        errors = [f"{p.name}: {e}" for p in (nino, levan) for e in p.errors]
        for person in (nino, levan):
            person.context.close()
    assert not errors, errors
