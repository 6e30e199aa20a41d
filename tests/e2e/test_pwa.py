"""The site installs as an app (issue 26), checked the way Lighthouse's PWA audits check it, in
Chromium: the manifest parses with no error and its maskable icons keep to the safe zone; the
service worker registers and controls the page after a reload; offline, the shell still loads
from its cache, the start URL and every page (the wallet, a table) show the offline page, in the
reader's language, whose "Try again" brings back the page asked for; and the cache holds no page
but the offline one. No console error and no Content-Security-Policy violation on the way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .conftest import CHROMIUM, LAUNCH_ARGS, _postgres, _server_settled
from .people import Person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""
# The registration's worker once it has activated: its script's address.
ACTIVE_JS = """async () => {
  const worker = (await navigator.serviceWorker.ready).active;
  while (worker.state !== "activated") {
    await new Promise((changed) => worker.addEventListener("statechange", changed, {once: true}));
  }
  return worker.scriptURL;
}"""
# Every entry of every cache: [cache, path, Content-Type, Content-Language].
CACHED_JS = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      const url = new URL(request.url);
      found.push([name, url.pathname + url.search, response.headers.get("Content-Type"),
                  response.headers.get("Content-Language")]);
    }
  }
  return found;
}"""
# The worker has heard the language the reader's pages speak (sw.js's marker).
SPOKEN_JS = """async (language) => {
  const marker = await caches.match("/offline/spoken");
  return Boolean(marker) && (await marker.text()) === language;
}"""
# How far from the centre, as a share of the width, the icon draws anything but its background
# (the colour of its corner); a maskable icon keeps to the circle of 40 % (the safe zone).
REACH_JS = """async (src) => {
  const image = new Image();
  image.src = src;
  await image.decode();
  const size = image.naturalWidth;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, size, size).data;
  let reach = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const at = (y * size + x) * 4;
      const apart = [0, 1, 2, 3].some((c) => Math.abs(pixels[at + c] - pixels[c]) > 48);
      if (apart) reach = Math.max(reach, Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2));
    }
  }
  return reach / size;
}"""
FELT = "rgb(15, 81, 50)"  # site.css --felt: the header, drawn only if site.css loaded


class Visitor(Person):
    """A person whose every console error, warning (the service worker's too) and policy
    violation is kept."""

    def __init__(self, browser, server) -> None:
        super().__init__(browser, server, "pwa")
        self.context.add_init_script(WATCH_VIOLATIONS)
        self.complaints: list[str] = []
        self.context.on("console", self._console)

    def _console(self, message) -> None:
        if message.type in {"error", "warning"} or "Content-Security-Policy" in message.text:
            self.complaints.append(f"{message.type}: {message.text}")

    def check(self, where: str) -> None:
        violations = self.page.evaluate("() => window.__cspViolations || []")
        assert not violations and not self.complaints and not self.errors, (
            where,
            violations,
            self.complaints,
            self.errors,
        )

    def back_online(self) -> None:
        """A page open when the network went may have tried its socket meanwhile; the browser
        saying it is offline is what offline means, not a fault of the site."""
        self.context.set_offline(False)
        self.complaints = [c for c in self.complaints if "ERR_INTERNET_DISCONNECTED" not in c]

    def cached(self) -> list[list[str]]:
        return self.page.evaluate(CACHED_JS)

    def offline_page_shown(self, path: str) -> None:
        response = self.page.goto(path)
        assert response is not None and response.ok and response.from_service_worker, path
        assert self.page.url.endswith(path), "the address stays the one asked for"
        assert self.page.locator("h1").inner_text() == "No connection", path
        header = self.page.locator(".site-header").evaluate("n => getComputedStyle(n).background")
        assert FELT in header, "site.css came from the worker's cache"
        self.check(f"offline at {path}")


@pytest.fixture
def visitor(browser, e2e_server, django_db_blocker) -> Iterator[Visitor]:
    person = Visitor(browser, e2e_server)
    yield person
    person.context.close()
    if _postgres():
        _server_settled(django_db_blocker)


def test_the_site_installs_and_answers_offline_without_storing_a_page(visitor, e2e_server):
    page = visitor.page
    visitor.sign_up("Installer")
    page.goto("/")
    assert page.evaluate(ACTIVE_JS) == f"{e2e_server.url}/sw.js"
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{e2e_server.url}/", "the worker's scope is the whole site"
    visitor.check("online")

    # The manifest, as Chromium reads it for installing: no error, and the maskable icons keep
    # to the safe zone.
    cdp = visitor.context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert read["url"] == f"{e2e_server.url}/manifest.webmanifest"
    assert read["errors"] == []
    manifest = page.evaluate("url => fetch(url).then(r => r.json())", read["url"])
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    maskable = [icon["src"] for icon in manifest["icons"] if icon.get("purpose") == "maskable"]
    assert len(maskable) == 2
    for src in maskable:
        assert page.evaluate(REACH_JS, src) <= 0.4, src

    # Private pages, seen online: the wallet and a table of this player's.
    page.goto("/wallet/")
    balance = page.locator("#wallet-balance").inner_text()
    table = visitor.open_table("japanese_joker")
    shell = visitor.cached()
    pages = {path: language for _, path, kind, language in shell if "text/html" in (kind or "")}
    assert pages == {f"/offline/?language={code}": code for code in ("en", "ka", "ru")}
    assert {path for _, path, _, _ in shell} == {
        *pages,
        "/static/css/site.css",
        "/static/icons/icon.svg",
    }
    assert len({name for name, *_ in shell}) == 1, "one cache: the current shell's"
    visitor.check("the private pages")

    # The network goes: the start URL and each private page show the offline page, never a
    # stored copy, and a static file of the shell still loads.
    visitor.context.set_offline(True)
    for path in ("/", "/wallet/", "/" + table.split("/", 3)[3]):
        visitor.offline_page_shown(path)
        assert balance not in page.locator("main").inner_text()
        assert "Installer" not in page.content()
    assert page.evaluate("() => fetch('/static/css/site.css').then(r => r.status)") == 200
    assert visitor.cached() == shell

    # The network is back: "Try again" brings the page asked for (the table).
    visitor.back_online()
    page.get_by_role("link", name="Try again").click()
    page.wait_for_url(table)
    page.locator("#live-status").wait_for(state="attached")
    visitor.check("back online")


def test_chromium_finds_nothing_that_keeps_the_site_from_installing(browser, e2e_server, tmp_path):
    """Chromium's own installability check (what its install button and Lighthouse ask). It
    needs a profile on disk: every context of the shared browser is off the record, which the
    check refuses before looking at anything else."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM),
        headless=True,
        args=LAUNCH_ARGS,
        base_url=e2e_server.url,
    )
    try:
        page = context.new_page()
        page.goto("/")
        page.evaluate(ACTIVE_JS)
        page.reload()
        found = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
        assert found["installabilityErrors"] == []
    finally:
        context.close()


def test_the_offline_page_speaks_the_language_the_reader_chose(visitor):
    page = visitor.page
    page.goto("/")
    page.evaluate(ACTIVE_JS)
    page.select_option("#language-select", "ka")
    page.locator(".language-switcher button").click()
    page.wait_for_function("() => document.documentElement.lang === 'ka'")
    page.wait_for_function(SPOKEN_JS, arg="ka")
    visitor.context.set_offline(True)
    response = page.goto("/ladder/")
    assert response is not None and response.from_service_worker
    assert page.locator("html").get_attribute("lang") == "ka"
    assert page.url.endswith("/ladder/")
    assert page.locator("h1").inner_text() == "კავშირი არ არის"
    visitor.back_online()
    visitor.check("in Georgian")
