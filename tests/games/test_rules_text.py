"""The rules engines' refusals read in the player's language (en, ka, ru).

The engines are pure Python and raise English templates marked with ``gettext_noop``; the
Django side (``games.rules_text``) translates the template and spells the cards and suits it
names the way the table page draws them. These tests read the engines' source, so a new message
without a Georgian or Russian translation fails here, not in front of a player.
"""

from __future__ import annotations

import ast
import copy
import pickle
import re
from pathlib import Path
from string import Formatter

import pytest
from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import get_language, gettext

from games.messages import BadMessage, decode
from games.rules import IllegalAction, get_game
from games.rules.base import SUIT_NAMES, CardCode, SuitCode, gettext_noop
from games.rules.cards import FULL_DECK, JOKER_DECK
from games.rules_text import card_text, rules_message

RULES = Path(__file__).resolve().parents[2] / "games" / "rules"
TRANSLATED = ("ka", "ru")
# The errors a player can meet; InvalidDeal and the storage errors only ever reach a developer.
PLAYER_FACING = {"IllegalAction", "InvalidOptions"}


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name:
                found.append((f"{path.name}:{node.lineno}", node))
    return found


def _templates() -> dict[str, str]:
    """Every template the engines mark, with where it is marked."""
    templates = {}
    for where, call in _calls("gettext_noop"):
        (argument,) = call.args
        assert isinstance(argument, ast.Constant), f"{where}: mark a literal, not an expression"
        templates[argument.value] = where
    return templates


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


def test_the_engines_mark_their_messages() -> None:
    """The scan finds the templates (some are shared), so the checks below are not vacuous."""
    assert len(_templates()) > 50


@pytest.mark.parametrize("kind", sorted(PLAYER_FACING))
def test_every_error_a_player_can_meet_is_built_from_a_marked_template(kind: str) -> None:
    unmarked = [
        where
        for where, call in _calls(kind)
        if not (
            call.args
            and isinstance(call.args[0], ast.Call)
            and getattr(call.args[0].func, "id", None) == "gettext_noop"
        )
    ]
    assert _calls(kind) and not unmarked


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_template_is_translated_with_the_same_placeholders(language: str) -> None:
    problems = []
    with translation.override(language):
        for template, where in _templates().items():
            translated = gettext(template)
            if translated == template:
                problems.append(f"{where}: not translated: {template!r}")
            elif _placeholders(translated) != _placeholders(template):
                problems.append(f"{where}: placeholders differ: {translated!r}")
    assert not problems, "\n".join(problems)


# --- Cards and suits ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "code", "text"),
    [
        ("en", "QH", "Q♥"),
        ("en", "TS", "10♠"),
        ("en", "7C", "7♣"),
        ("en", "X1", "the red joker"),
        ("ru", "QH", "Д♥"),
        ("ru", "AS", "Т♠"),
        ("ru", "TD", "10♦"),
        ("ru", "X2", "чёрный джокер"),
        ("ka", "KD", "კ♦"),
        ("ka", "JC", "ვ♣"),
        ("ka", "9H", "9♥"),
        ("ka", "X1", "წითელი ჯოკერი"),
    ],
)
def test_a_card_is_written_as_the_table_page_draws_it(language: str, code: str, text: str) -> None:
    with translation.override(language):
        assert card_text(code) == text


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ["spade", "heart", "diamond", "club"]),
        ("ru", ["пик", "червей", "бубён", "треф"]),
        ("ka", ["ყვავის", "გულის", "აგურის", "ჯვრის"]),
    ],
)
def test_a_suit_is_named_in_the_readers_language(language: str, names: list[str]) -> None:
    template = gettext_noop("You must follow suit: play a {suit} or a joker.")
    with translation.override(language):
        said = [rules_message(IllegalAction(template, suit=SuitCode(s))) for s in "SHDC"]
    for name, sentence in zip(names, said, strict=True):
        assert name in sentence


def test_in_english_the_rendered_message_is_the_engines_own_text() -> None:
    for code in sorted(JOKER_DECK | FULL_DECK):
        assert card_text(code) == str(CardCode(code))
    for suit in SUIT_NAMES:
        error = IllegalAction(
            gettext_noop("You must follow suit: play a {suit} or a joker."), suit=SuitCode(suit)
        )
        assert rules_message(error) == str(error)


# --- Whole refusals from the engines ----------------------------------------------------------


def _classic_refusal(card: str) -> IllegalAction:
    """Seat 1 holds QH and 9C in a 2-card classic deal and tries ``card``."""
    game = get_game("classic_joker")
    hands = [["KS", "7D"], ["QH", "9C"], ["AS", "TD"], ["8S", "JD"]]
    state = game.from_deal({"dealer": 0, "deal": 2, "hands": hands, "trump_card": "6H"}, {})
    for bid in (0, 0, 0, 1):
        state = state.apply({"type": "bid", "tricks": bid})
    with pytest.raises(IllegalAction) as refused:
        state.apply({"type": "play", "card": card})
    return refused.value


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "You do not hold the red joker."),
        ("ka", "ეს კარტი არ გაქვთ: წითელი ჯოკერი."),
        ("ru", "Такой карты у вас нет: красный джокер."),
    ],
)
def test_an_engine_refusal_reads_in_the_active_language(language: str, text: str) -> None:
    refusal = _classic_refusal("X1")
    with translation.override(language):
        assert rules_message(refusal) == text


def test_the_clients_own_input_is_quoted_as_sent_never_translated_nor_formatted() -> None:
    refusal = _classic_refusal("{card}{0}")
    assert str(refusal) == "'{card}{0}' is not a card of this deck."
    with translation.override("ru"):
        assert rules_message(refusal) == "'{card}{0}' — не карта этой колоды."


def test_a_rules_error_survives_copy_and_pickle_although_its_text_holds_braces() -> None:
    error = IllegalAction(gettext_noop("Play a card: {example}."), example='{"type": "play"}')
    for twin in (copy.copy(error), pickle.loads(pickle.dumps(error))):
        assert type(twin) is IllegalAction and str(twin) == str(error)
        assert (twin.template, twin.params) == (error.template, error.params)


# --- The Django side around it -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the thread closes stale connections first
async def test_database_threads_inherit_the_language_of_the_socket_that_calls_them() -> None:
    """The table consumer renders errors inside ``database_sync_to_async``: the thread must see
    the language the consumer activated, and no other."""
    with translation.override("ka"):
        assert await database_sync_to_async(get_language)() == "ka"
    with translation.override("ru"):
        assert await database_sync_to_async(gettext)("It is not your turn.") == "Сейчас не ваш ход."
    assert await database_sync_to_async(get_language)() == "en"


def test_an_unknown_message_type_is_quoted_as_sent() -> None:
    with translation.override("ka"), pytest.raises(BadMessage) as refused:
        decode({"type": "dance"})
    message = str(refused.value)
    assert "'dance'" in message and re.search("[\u10d0-\u10ff]", message)
