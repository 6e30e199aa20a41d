"""Counted things take the plural form of the reader's language (issue 12, § 3: "1 cards
each"): English one/other, Russian one/few/many (1 and 21; 2–4 and 22–24; 0, 5–20 and 25–30),
Georgian one noun form after any number. The catalogues' Plural-Forms headers say so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import ngettext

from tests.support.players import client_for

LOCALE = Path(__file__).resolve().parents[2] / "locale"

COINS = ("%(amount)s coin added to your wallet.", "%(amount)s coins added to your wallet.")


@pytest.mark.parametrize(
    ("code", "header"),
    [
        ("ka", "nplurals=2; plural=(n!=1);"),
        ("ru", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4"),
    ],
)
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_each_catalogue_declares_its_languages_plural_rule(code, header, domain):
    text = (LOCALE / code / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
    declared = re.search(r'"Plural-Forms: ((?:[^"]|"\n")+)', text).group(1).replace('"\n"', "")
    assert declared.startswith(header)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", {1: "1 coin added", 2: "2 coins added", 5: "5 coins added", 21: "21 coins added"}),
        (
            "ru",
            {
                1: "зачислена 1 монета",
                2: "зачислены 2 монеты",
                5: "зачислено 5 монет",
                11: "зачислено 11 монет",
                21: "зачислена 21 монета",
                24: "зачислены 24 монеты",
            },
        ),
        ("ka", {1: "დაემატა 1 მონეტა", 5: "დაემატა 5 მონეტა"}),
    ],
)
def test_a_count_of_coins_agrees_with_its_number(code, expected):
    with translation.override(code):
        for count, words in expected.items():
            assert words in ngettext(*COINS, count) % {"amount": count}


@pytest.mark.django_db
def test_pages_count_in_russian(alice):
    from django.conf import settings

    client = client_for(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    wallet = client.get("/wallet/").content.decode()
    amount = settings.COIN_DAILY_TOPUP_AMOUNT  # 250: the "many" form
    assert f"Ежедневное пополнение на {amount} монет доступно" in wallet


@pytest.mark.django_db
def test_the_javascript_catalogue_carries_the_plural_forms():
    catalogue = Client().get("/jsi18n/?l=ru", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "%(from)s invites you to %(game)s for %(stake)s coin." in catalogue
    # The "few" form is there for ngettext (the catalogue escapes non-ASCII as JSON does).
    assert json.dumps("ставка %(stake)s монеты.")[1:-1] in catalogue
    assert "n%10==1 && n%100!=11" in catalogue  # and the rule that picks it
