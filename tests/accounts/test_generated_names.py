"""The names the site makes (issue 26, defect 7): a guest's "Guest-4821" and a computer's
"Computer 7" are stored in that form and read in the page's language; the admin tells computers
from guests; an operator made by ``createsuperuser`` gets no sign-up grant."""

from __future__ import annotations

import io
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from accounts.models import CoinAccount, CoinTransaction, Player
from accounts.names import shown_name
from accounts.selectors import coin_audit
from games.models import Match
from games.services import bots, matches
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


def _in(language: str, client: Client | None = None) -> Client:
    client = client or Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.parametrize(
    ("language", "guest", "computer"),
    [
        ("en", "Guest-0042", "Computer 7"),
        ("ka", "სტუმარი-0042", "კომპიუტერი 7"),
        ("ru", "Гость-0042", "Компьютер 7"),
    ],
)
def test_generated_names_read_in_the_readers_language_and_others_stay(language, guest, computer):
    with translation.override(language):
        assert shown_name("Guest-0042") == guest
        assert shown_name("Computer 7") == computer
        assert shown_name("alice") == "alice"
        assert shown_name("Guest-42x") == "Guest-42x"  # not a form the site makes


def test_a_guest_is_welcomed_and_shown_by_a_name_in_russian(db):
    client = _in("ru")
    page = client.post("/guest/", follow=True).content.decode()
    guest = Player.objects.get()
    number = guest.name.removeprefix("Guest-")
    assert re.fullmatch(r"Guest-\d{4}", guest.name)  # stored as it always was
    assert f"Добро пожаловать, Гость-{number}!" in page
    profile = _in("ru").get(f"/players/{guest.name}/").content.decode()  # the stored name's URL
    assert f'<span class="name">Гость-{number}</span>' in profile


def test_computer_players_are_named_in_georgian_on_a_match_page(alice):
    table = bots.practice_start(player=alice, game="classic_joker", strength="easy")
    match = Match.objects.get(table=table)
    matches.match_cancel(match_id=match.pk)
    computers = list(
        Player.objects.filter(computer__isnull=False).order_by("pk").values_list("name", flat=True)
    )
    assert computers == ["Computer 1", "Computer 2", "Computer 3"]
    page = _in("ka", client_for(alice)).get(f"/matches/{match.pk}/").content.decode()
    for number in (1, 2, 3):
        assert f"კომპიუტერი {number}" in page
    assert "Computer 1" not in page


def test_the_admin_lists_computers_as_computers_not_guests(alice, guest):
    table = bots.practice_start(player=alice, game="japanese_joker", strength="easy")
    assert table.seats.filter(is_bot=True).count() == 1
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-boss-123")
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/accounts/player/")
    kinds = dict(
        re.findall(
            r'<th class="field-name"><a [^>]*>([^<]+)</a></th><td class="field-kind">(\w+)</td>',
            listing.content.decode(),
        )
    )
    assert kinds == {
        "alice": "registered",
        guest.name: "guest",
        "Computer 1": "computer",
    }
    guests = client.get("/admin/accounts/player/?kind=guest").context["cl"].result_list
    assert list(guests) == [guest]
    computers = client.get("/admin/accounts/player/?kind=computer").context["cl"].result_list
    assert [p.name for p in computers] == ["Computer 1"]


def test_createsuperuser_makes_an_operator_without_the_sign_up_grant(db, monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "pw-root-123456")
    call_command(
        "createsuperuser",
        "--noinput",
        username="root",
        email="root@example.com",
        stdout=io.StringIO(),
    )
    client = Client()
    client.login(username="root", password="pw-root-123456")
    page = client.get("/wallet/")
    root = Player.objects.get(name="root")
    assert page.context["player"] == root
    assert CoinAccount.objects.get(player=root).balance == 0
    assert not CoinTransaction.objects.filter(kind=CoinTransaction.Kind.SIGNUP_GRANT).exists()
    assert coin_audit().ok
    # A person who signs up still gets it.
    client = Client()
    client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "correct-horse-9",
            "password2": "correct-horse-9",
        },
    )
    assert CoinAccount.objects.get(player__name="newcomer").balance == settings.COIN_SIGNUP_GRANT
    assert coin_audit().ok
