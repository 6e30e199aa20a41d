"""The installable app's pieces as served (issue 26), without a browser: the manifest, the icons
it names, the service worker's shell, the offline page and /favicon.ico. The browser half is
tests/e2e/test_pwa.py."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings

from tests.support.players import make_player

STATIC = Path(settings.BASE_DIR) / "static"
PRIVATE = ("/tables/", "/wallet/", "/accounts/", "/admin/", "/ws/", "/players/", "/friends/")
ROOT_COLOURS = re.search(r":root\s*{([^}]*)}", (STATIC / "css" / "site.css").read_text())


def colour(name: str) -> str:
    assert ROOT_COLOURS is not None
    found = re.search(rf"--{name}:\s*(#[0-9a-f]{{6}})", ROOT_COLOURS.group(1))
    assert found, name
    return found.group(1)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def shell_of(source: str) -> list[str]:
    found = re.search(r"^const SHELL = (\[.*\]);$", source, re.M)
    assert found, source
    return json.loads(found.group(1))


def hashed_names(source: str) -> bool:
    found = re.search(r"^const HASHED_NAMES = (true|false);$", source, re.M)
    assert found, source
    return found.group(1) == "true"


def cache_of(source: str) -> str:
    found = re.search(r'^const CACHE = "(shell-[0-9a-f]+)";$', source, re.M)
    assert found, source
    return found.group(1)


def test_the_manifest_is_served_valid_and_names_the_site_and_its_icons():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Joker" and manifest["short_name"] == "Joker"
    assert manifest["description"]
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == colour("felt")
    assert manifest["background_color"] == colour("paper")

    pngs = set()
    for icon in manifest["icons"]:
        image = Client().get(icon["src"])
        assert image.status_code == 200, icon
        assert image["Content-Type"] == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = png_size(body(image))
            assert icon["sizes"] == f"{width}x{height}", icon
            pngs.add((icon["purpose"], width))
        else:
            assert (icon["type"], icon["sizes"]) == ("image/svg+xml", "any")
    assert pngs == {("any", 192), ("any", 512), ("maskable", 192), ("maskable", 512)}


@pytest.mark.parametrize(("code", "name"), [("ka", "ჯოკერი"), ("ru", "Джокер")])
def test_the_manifest_names_the_app_in_the_browsers_language(code, name):
    manifest = Client().get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE=code).json()
    assert (manifest["lang"], manifest["name"]) == (code, name)


@pytest.mark.django_db
def test_every_page_links_the_manifest_its_icons_and_the_worker():
    html = Client().get("/").content.decode()
    head = html[: html.index("</head>")]
    assert '<link rel="manifest" href="/manifest.webmanifest">' in head
    theme = re.search(r'<meta name="theme-color" content="([^"]+)">', head)
    assert theme and theme.group(1) == colour("felt")
    assert '<script type="module" src="/static/js/pwa.js" data-service-worker="/sw.js">' in head
    icons = re.findall(r'<link rel="(?:icon|apple-touch-icon)" href="([^"]+)"', head)
    assert "/favicon.ico" in icons and "/static/icons/icon.svg" in icons
    assert "/static/icons/apple-touch-icon.png" in icons
    for href in icons:
        response = Client().get(href)
        assert response.status_code == 200, href
        assert response["Content-Type"].startswith("image/"), href
    assert png_size(body(Client().get("/static/icons/apple-touch-icon.png"))) == (180, 180)


def test_favicon_ico_is_an_icon_of_16_and_32_pixels():
    response = Client().get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    data = body(response)
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind, count) == (0, 1, 2)
    for index, size in enumerate((16, 32)):
        width, height, *_, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * index : 22 + 16 * index]
        )
        assert (width, height) == (size, size)
        assert png_size(data[offset : offset + length]) == (size, size)


def test_the_worker_is_served_from_the_root_and_stores_only_the_static_shell():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == "application/javascript"
    assert response["Cache-Control"] == "no-cache"
    source = response.content.decode()
    shell = shell_of(source)
    offline_pages = [f"/offline/?language={code}" for code, _name in settings.LANGUAGES]
    assert set(offline_pages) <= set(shell)
    # Here (as in development) a file changes under the same name: the network answers first.
    assert hashed_names(source) is False
    for url in shell:
        assert url in offline_pages or url.startswith(settings.STATIC_URL), url
        assert not url.startswith(PRIVATE), url
        assert Client().get(url).status_code == 200, url
    # What the offline page is drawn with is in the shell: it must load with no network.
    offline = Client().get("/offline/").content.decode()
    for href in re.findall(r'<link rel="[^"]+" href="([^"]+)"', offline):
        assert href in shell, href


def test_an_edit_to_the_shell_changes_the_worker_so_browsers_install_it_again(tmp_path):
    before = Client().get("/sw.js").content.decode()
    assert Client().get("/sw.js").content.decode() == before, "the same shell, the same worker"
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    with (copy / "css" / "site.css").open("a") as css:
        css.write("\n.pwa-test { color: red; }\n")
    with override_settings(STATICFILES_DIRS=[copy]):
        after = Client().get("/sw.js").content.decode()
    assert cache_of(after) != cache_of(before)


def test_in_production_the_shell_is_the_hashed_files_the_offline_page_asks_for(tmp_path):
    """ManifestStaticFilesStorage, as in production, over files collected into tmp_path."""
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", "--noinput", verbosity=0)
        worker = Client().get("/sw.js").content.decode()
        offline = Client().get("/offline/").content.decode()
        manifest = Client().get("/manifest.webmanifest").json()
    shell = shell_of(worker)
    # Names that change with their content: the worker's cache answers first.
    assert hashed_names(worker) is True
    linked = re.findall(r'<link rel="[^"]+" href="([^"]+)"', offline)
    assert linked and set(linked) <= set(shell)
    for url in [*shell, *(icon["src"] for icon in manifest["icons"])]:
        if url.startswith("/offline/"):
            continue
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), f"{url} is not a hashed name"
        assert (tmp_path / url.removeprefix(settings.STATIC_URL)).is_file(), url


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["en", "ka", "ru"])
def test_the_offline_page_reads_nothing_holds_nothing_private_and_speaks_the_readers_language(
    code, django_assert_num_queries
):
    client = Client()
    player = make_player("Wanderer")
    client.force_login(player.user)
    with django_assert_num_queries(0):
        response = client.get("/offline/", HTTP_ACCEPT_LANGUAGE=code)
    assert response.status_code == 200
    assert response["Content-Language"] == code
    html = response.content.decode()
    assert f'<html lang="{code}">' in html
    # "Try again" reloads the address the page is shown at: the page the reader asked for.
    assert '<a class="button" href="" id="try-again">' in html
    assert "Wanderer" not in html and "csrf" not in html.lower()
    assert not response.cookies


@pytest.mark.parametrize("code", ["en", "ka", "ru"])
def test_the_offline_page_the_worker_stores_speaks_the_language_its_address_names(code):
    """The worker stores one per language; the reader's own language does not change it."""
    response = Client().get(f"/offline/?language={code}", HTTP_ACCEPT_LANGUAGE="ka")
    assert response.status_code == 200
    assert response["Content-Language"] == code
    assert f'<html lang="{code}">' in response.content.decode()


def test_an_offline_address_naming_no_language_of_the_site_speaks_the_readers():
    response = Client().get("/offline/?language=xx", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert response["Content-Language"] == "ru"
