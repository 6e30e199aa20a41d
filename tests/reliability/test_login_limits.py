"""Item 6: failed logins and password tables are limited per account and per table, with the
client's own address (from the trusted-proxy setting) only as a coarse ceiling.

Behind a proxy every browser arrives from the proxy's address; counting failures per address
alone let ten bad logins a minute lock everybody out, and counting table passwords per player
alone let fresh guest sessions guess without end.
"""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from games.models import Seat
from games.services import tables
from games.services.passwords import (
    PASSWORD_ATTEMPTS_PER_ADDRESS,
    PASSWORD_ATTEMPTS_PER_TABLE,
)
from tests.support.players import make_player

pytestmark = pytest.mark.django_db

LIMITED = "Too many failed login attempts. Try again later."
PROXY = "10.0.0.2"  # every request comes through this proxy


def _login(client: Client, login: str, password: str, *, client_ip: str | None = None):
    extra = {"REMOTE_ADDR": PROXY}
    if client_ip:
        extra["HTTP_X_FORWARDED_FOR"] = client_ip
    return client.post("/accounts/login/", {"login": login, "password": password}, **extra)


def test_other_accounts_failures_do_not_block_a_correct_login_from_the_same_address():
    """Pass: after 15 failed logins for other accounts from the proxy's address (the old limit
    was 10), bob's correct login from that address succeeds: the per-address count is only a
    ceiling."""
    make_player("bob")
    for index in range(15):
        _login(Client(), f"ghost{index}", "wrong-password")
    response = _login(Client(), "bob", "correct-horse-9")
    assert response.status_code == 302, response.content.decode()[:500]


def test_an_account_is_paused_after_five_failures_whatever_the_address():
    """Pass: five wrong passwords for alice from five addresses hold back the sixth try, even
    with the right password, while bob still logs in."""
    make_player("alice")
    make_player("bob")
    for index in range(5):
        _login(Client(), "alice", "wrong-password", client_ip=f"198.51.100.{index}")
    assert LIMITED in _login(Client(), "alice", "correct-horse-9").content.decode()
    assert _login(Client(), "bob", "correct-horse-9").status_code == 302


@override_settings(ALLAUTH_TRUSTED_PROXY_COUNT=1)
def test_behind_a_trusted_proxy_the_address_ceiling_counts_each_client_on_its_own():
    """Pass: with one trusted proxy, the client that failed past the ceiling is held back
    while another client behind the same proxy logs in."""
    from django.conf import settings

    make_player("bob")
    ceiling = int(settings.ACCOUNT_RATE_LIMITS["login_failed"].split(",")[1].split("/")[0])
    for index in range(ceiling):
        _login(Client(), f"ghost{index}", "wrong-password", client_ip="203.0.113.9")
    held_back = _login(Client(), "bob", "correct-horse-9", client_ip="203.0.113.9")
    assert LIMITED in held_back.content.decode()
    response = _login(Client(), "bob", "correct-horse-9", client_ip="203.0.113.10")
    assert response.status_code == 302


def _guest(address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.post("/guest/")
    return client


def _try_password(client: Client, table_id: int, password: str) -> str:
    response = client.post(f"/tables/{table_id}/join/", {"password": password}, follow=True)
    return response.content.decode()


def test_fresh_guest_sessions_cannot_guess_a_table_password_without_limit():
    """Pass: after PASSWORD_ATTEMPTS_PER_TABLE wrong guesses from fresh guests at many
    addresses, a new guest with the right password is paused too: nobody was seated."""
    alice = make_player("alice")
    table = tables.table_create(
        creator=alice,
        game="japanese_joker",
        options={},
        stake=0,
        visibility="password",
        password="open-sesame",
    )
    for index in range(PASSWORD_ATTEMPTS_PER_TABLE):
        page = _try_password(_guest(f"192.0.2.{index}"), table.pk, f"guess{index}")
        assert "Wrong password for this table." in page
    page = _try_password(_guest("192.0.2.250"), table.pk, "open-sesame")
    assert "Too many wrong passwords for this table." in page
    assert Seat.objects.filter(table=table).count() == 1


def test_one_address_is_paused_on_a_table_while_others_still_join():
    """Pass: PASSWORD_ATTEMPTS_PER_ADDRESS wrong guesses from fresh guests at one address
    pause that address (even with the right password); a guest elsewhere sits down."""
    alice = make_player("alice")
    table = tables.table_create(
        creator=alice,
        game="japanese_joker",
        options={},
        stake=0,
        visibility="password",
        password="open-sesame",
    )
    for index in range(PASSWORD_ATTEMPTS_PER_ADDRESS):
        _try_password(_guest("192.0.2.7"), table.pk, f"guess{index}")
    page = _try_password(_guest("192.0.2.7"), table.pk, "open-sesame")
    assert "Too many wrong passwords for this table." in page
    _try_password(_guest("192.0.2.8"), table.pk, "open-sesame")
    assert Seat.objects.filter(table=table).count() == 2


@override_settings(ALLAUTH_TRUSTED_PROXY_COUNT=1)
def test_behind_a_trusted_proxy_table_guesses_count_per_client_address():
    """Pass: with one trusted proxy, the pause falls on the client address in
    X-Forwarded-For, not on the proxy every guest comes through."""
    alice = make_player("alice")
    table = tables.table_create(
        creator=alice,
        game="japanese_joker",
        options={},
        stake=0,
        visibility="password",
        password="open-sesame",
    )
    for index in range(PASSWORD_ATTEMPTS_PER_ADDRESS):
        guesser = _guest(PROXY)
        guesser.post(
            f"/tables/{table.pk}/join/",
            {"password": f"guess{index}"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR="203.0.113.9",
        )
    friend = _guest(PROXY)
    friend.post(
        f"/tables/{table.pk}/join/",
        {"password": "open-sesame"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="203.0.113.10",
    )
    assert Seat.objects.filter(table=table).count() == 2


def test_the_trusted_proxy_settings_come_from_the_deploy_environment(tmp_path):
    """Pass: TRUSTED_PROXY_COUNT and TRUSTED_CLIENT_IP_HEADER (docs/deploy.md) become
    allauth's settings, which both the login limits and the table-password limits read."""
    import json
    import os
    import subprocess
    import sys

    from .conftest import ROOT

    code = (
        "import json, django; django.setup(); from allauth import app_settings as a; "
        "print(json.dumps([a.TRUSTED_PROXY_COUNT, a.TRUSTED_CLIENT_IP_HEADER]))"
    )
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "VAR_DIR": str(tmp_path),
        "TRUSTED_PROXY_COUNT": "2",
        "TRUSTED_CLIENT_IP_HEADER": "X-Real-IP",
    }
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [2, "X-Real-IP"]
