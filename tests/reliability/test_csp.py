"""The Content-Security-Policy: every page is sent with it, in production too, and no page of
the site breaks it in a real browser (no inline script, no inline style, nothing from
elsewhere)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest
from django.test import Client

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
django.setup()
from django.test import Client
response = Client().get("/help/", secure=True, HTTP_HOST="joker.example.org")
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
    """Pass: under DJANGO_ENV=production a page (the help) answers 200 with the policy."""
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
