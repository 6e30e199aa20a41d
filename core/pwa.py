"""The site as an installable app (issue 26): its manifest, its service worker, the page the worker
shows when the network is gone, and /favicon.ico.

The worker is served from the root so that its scope is the whole site. It keeps only the shell
the offline page is drawn with (SHELL): pages carry a player's session, hand and coins, so it never
stores one (the worker's own source says what it does with each request).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

# The static files the offline page is drawn with.
SHELL = ("css/site.css", "icons/icon.svg")
# static/css/site.css: --felt (the header) and --paper (the page).
THEME_COLOUR = "#0f5132"
BACKGROUND_COLOUR = "#f7f5ef"
ICON_SIZES = (192, 512)


def offline_html() -> str:
    """The offline page in the active language. It reads nothing from the request or the
    database: the worker stores it, so it must hold nothing of one player's."""
    return render_to_string("pwa/offline.html")


def _source(name: str) -> str:
    """Where a static file of the site lives (its source folder, in every mode)."""
    path = finders.find(name)
    if not isinstance(path, str):
        raise FileNotFoundError(f"static file {name}")
    return path


def offline_urls() -> dict[str, str]:
    """The offline page in each of the site's languages, by language code. The worker stores
    them all when it installs, so the page it shows never waits for a fetch made after the
    reader switched languages (a switch just before the network went was once lost)."""
    return {code: f"{reverse('offline')}?language={code}" for code, _name in settings.LANGUAGES}


def shell_urls() -> list[str]:
    """What the worker stores when it installs: the offline pages and, under the names the pages
    ask for (hashed in production), the files they are drawn with."""
    return [*offline_urls().values(), *(static(name) for name in SHELL)]


def shell_version() -> str:
    """A digest of everything the worker stores. It names the worker's cache, so a deploy (or, in
    development, an edit) that changes any of it changes /sw.js and the browser installs it."""
    digest = hashlib.sha256()
    for name in SHELL:
        digest.update(Path(_source(name)).read_bytes())
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            digest.update(offline_html().encode())
    return digest.hexdigest()[:16]


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, named in the reader's language. Browsers fetch it without cookies,
    so that language is the browser's (Accept-Language)."""
    icons: list[dict[str, str]] = [
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"}
    ]
    for purpose, stem in (("any", "icon"), ("maskable", "maskable")):
        icons += [
            {
                "src": static(f"icons/{stem}-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for size in ICON_SIZES
        ]
    home = reverse("home")
    body = {
        "id": home,
        "name": gettext("Joker"),
        "short_name": gettext("Joker"),
        "description": gettext("Georgian trick-taking games, live in your browser"),
        "lang": translation.get_language(),
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    response = HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json"
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js. ``no-cache``: the browser asks for it again to see whether it changed (it also
    compares the bytes), so a new shell reaches installed apps at their next visit."""
    source = render_to_string(
        "pwa/sw.js",
        {
            "version": shell_version(),
            "offline": json.dumps(offline_urls()),
            "default_language": json.dumps(settings.LANGUAGE_CODE),
            "shell": json.dumps(shell_urls()),
            "hashed_names": json.dumps(isinstance(staticfiles_storage, ManifestFilesMixin)),
        },
    )
    response = HttpResponse(source, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """In the language ``?language=`` names (what the worker stores), else the reader's."""
    language = request.GET.get("language", "")
    if language not in dict(settings.LANGUAGES):
        return HttpResponse(offline_html())
    with translation.override(language):
        response = HttpResponse(offline_html())
    response["Content-Language"] = language
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and feed readers ask for whatever the page links."""
    response = HttpResponse(
        Path(_source("icons/favicon.ico")).read_bytes(), content_type="image/x-icon"
    )
    response["Cache-Control"] = "public, max-age=86400"
    return response
