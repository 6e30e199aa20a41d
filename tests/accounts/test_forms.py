"""The account forms as a person meets them (issue 26, defect 8): the sign-up name field says
and enforces the name rule before submitting, a sign-up error keeps both passwords typed, a
long name echoed in an error is cut short, and the Block field is the Add-friend field's twin."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.validators import NAME_MAX_LENGTH, NAME_MIN_LENGTH
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-9"


def _input(html: str, selector: str) -> str:
    """The one ``<input …>`` tag whose attributes contain ``selector``."""
    tags = [tag for tag in re.findall(r"<input[^>]*>", html) if selector in tag]
    assert len(tags) == 1, tags
    return tags[0]


def _attrs(tag: str) -> dict[str, str]:
    return dict(re.findall(r'([\w-]+)="([^"]*)"', tag))


def test_the_username_field_says_the_rule_and_limits_what_is_typed():
    html = Client().get("/accounts/signup/").content.decode()
    username = _attrs(_input(html, 'name="username"'))
    assert username["maxlength"] == str(NAME_MAX_LENGTH) == "24"
    assert username["minlength"] == str(NAME_MIN_LENGTH) == "3"
    assert re.fullmatch(username["pattern"].replace(r"\p{L}\p{N}", "a-z0-9"), "ab_c-9")
    help_id = username["aria-describedby"]
    rule = re.search(rf'<div[^>]*id="{help_id}"[^>]*>([^<]+)</div>', html).group(1)
    assert rule == "A name is 3 to 24 letters, digits, “_” or “-”, with no spaces or other signs."
    assert username["title"] == rule  # what the browser says when the pattern does not match


def test_a_sign_up_error_keeps_both_passwords_typed():
    Client().post(
        "/accounts/signup/",
        {
            "username": "taken",
            "email": "t@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    answer = Client().post(
        "/accounts/signup/",
        {
            "username": "taken",
            "email": "other@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    html = answer.content.decode()
    assert answer.status_code == 200 and "username" in html and 'class="error"' in html
    for name in ("password1", "password2"):
        assert _attrs(_input(html, f'name="{name}"'))["value"] == PASSWORD


def test_the_login_form_still_never_sends_a_password_back():
    html = Client().post("/accounts/login/", {"login": "nobody", "password": PASSWORD})
    assert "value" not in _attrs(_input(html.content.decode(), 'name="password"'))


def test_a_long_unknown_name_is_cut_short_in_the_friend_request_error(alice):
    name = "x" * 150
    html = client_for(alice).post("/friends/", {"username": name}).content.decode()
    error = re.search(r'<p class="error" role="alert">([^<]+)</p>', html).group(1)
    assert error == f"There is no player called “{'x' * 24}…”."
    short = client_for(alice).post("/friends/", {"username": "x" * 24}).content.decode()
    assert f"There is no player called “{'x' * 24}”." in short  # a name of the rule is whole


def test_a_long_unknown_name_is_cut_short_in_the_block_error(alice):
    page = (
        client_for(alice).post("/friends/block/", {"name": "y" * 150}, follow=True).content.decode()
    )
    assert f"There is no player called “{'y' * 24}…”." in page


def test_the_block_field_is_built_like_the_add_friend_field(alice):
    html = client_for(alice).get("/friends/").content.decode()
    friend = _attrs(_input(html, 'name="username"'))
    block = _attrs(_input(html, 'id="block-name"'))
    for key in ("type", "maxlength", "autocomplete"):
        assert block[key] == friend[key], key
    assert block["type"] == "text" and "placeholder" in block
