"""`make run` serves with DEBUG off unless asked (issue 12, § 3), and a missing or failing page
shows the site's own page in the reader's language, never Django's debug page; a page that cannot
reach the database answers 503 with its own page (issue 25)."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator

import psycopg
import pytest
from django.db import IntegrityError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from tests.config.test_settings_and_deploy import _run
from tests.test_outage import connection_refused, django_error

# The settings `make run` loads (config.mode: DJANGO_ENV unset → local), asked for a missing page
# the way a browser asks, in each language.
MISSING_PAGE = """
import json, django
from config.mode import use_default_settings
use_default_settings()
django.setup()
from django.conf import settings
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment(debug=settings.DEBUG)  # the test environment must not turn DEBUG off
seen = {"debug": settings.DEBUG}
for code in ("en", "ka", "ru"):
    page = Client(HTTP_HOST="localhost").get("/no/such/page/", HTTP_ACCEPT_LANGUAGE=code)
    seen[code] = [page.status_code, page.content.decode()]
print(json.dumps(seen))
"""

HEADINGS = {"en": "Page not found", "ka": "გვერდი ვერ მოიძებნა", "ru": "Страница не найдена"}
FAILED = {"en": "Something went wrong", "ka": "რაღაც შეცდომა მოხდა", "ru": "Что-то пошло не так"}
UNAVAILABLE = {"en": "Back in a moment", "ka": "ცოტა ხანში დავბრუნდებით", "ru": "Скоро вернёмся"}


def test_make_run_serves_the_sites_own_404_in_every_language_with_debug_off(tmp_path):
    result = _run(["-c", MISSING_PAGE], VAR_DIR=str(tmp_path), DEBUG="")
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["debug"] is False
    for code, heading in HEADINGS.items():
        status, html = seen[code]
        assert status == 404
        assert f'<h1 id="error-heading">{heading}</h1>' in html
        assert f'<html lang="{code}">' in html
        # Django's debug page lists the URL patterns; the site's page lists nothing.
        assert "URLconf" not in html and "urlpatterns" not in html


def test_debug_is_for_developers_who_ask(tmp_path):
    code = (
        "import django; from config.mode import use_default_settings; use_default_settings();"
        " django.setup(); from django.conf import settings; print(settings.DEBUG)"
    )
    assert _run(["-c", code], VAR_DIR=str(tmp_path), DEBUG="").stdout.strip() == "False"
    assert _run(["-c", code], VAR_DIR=str(tmp_path), DEBUG="1").stdout.strip() == "True"


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["en", "ka", "ru"])
def test_a_missing_page_keeps_the_navigation(code):
    page = Client().get("/tables/999999/", HTTP_ACCEPT_LANGUAGE=code)
    assert page.status_code == 404
    html = page.content.decode()
    assert HEADINGS[code] in html
    assert 'class="site-header"' in html and 'href="/ladder/"' in html


@pytest.mark.parametrize("code", ["en", "ka", "ru"])
def test_the_500_page_needs_nothing_that_can_fail_and_speaks_the_readers_language(code):
    with translation.override(code):
        response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert FAILED[code] in html
    assert f'<html lang="{code}">' in html and 'href="/"' in html


@contextlib.contextmanager
def _every_query_fails_with(error: Exception) -> Iterator[None]:
    def cursor(self, *args, **kwargs):
        raise error

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BaseDatabaseWrapper, "cursor", cursor)
        yield


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["en", "ka", "ru"])
@pytest.mark.parametrize("path", ["/", "/ladder/", "/tables/1/"])
def test_a_page_that_cannot_reach_the_database_answers_503_in_the_readers_language(
    path, code, outages, caplog
):
    """The site's own page, standalone like the 500 page; the log gets the outage's one line
    (core.outage), not django.request's error with a traceback."""
    with _every_query_fails_with(connection_refused()):
        page = Client().get(path, HTTP_ACCEPT_LANGUAGE=code)
    assert page.status_code == 503
    html = page.content.decode()
    assert f'<h1 id="error-heading">{UNAVAILABLE[code]}</h1>' in html
    assert f'<html lang="{code}">' in html and 'href="/"' in html
    logged = [(r.name, r.levelname) for r in caplog.records if r.levelno >= logging.WARNING]
    assert logged == [("core.outage", "WARNING")]
    assert not any(record.exc_info for record in caplog.records)


@pytest.mark.django_db
def test_a_page_that_meets_a_constraint_violation_still_fails_as_a_bug(outages, caplog):
    violation = django_error(psycopg.errors.UniqueViolation("duplicate key"), IntegrityError)
    with _every_query_fails_with(violation), pytest.raises(IntegrityError):
        Client().get("/")
    assert [r for r in caplog.records if r.name == "core.outage"] == []
