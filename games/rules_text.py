"""The rules engines' refusals, and the moves the review names, in the reader's language.

An engine raises a :class:`~games.rules.RulesError` with an English template and its values,
and cannot translate it itself (``games/rules/`` never imports Django). Here the template goes
through the catalogue and the cards and suits it names are spelt as the table page draws them:
a card by the letter in its corner and its suit's symbol, a joker and a suit by name. Any other
value (a number, a client's own input echoed back) is shown as given.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from .rules.base import SUIT_SYMBOLS, CardCode, RulesError, SuitCode

# The four suits as one word inside a sentence: "You must follow suit: play a {suit} or a joker."
SUIT_NAMES = {
    "S": pgettext_lazy("suit in a sentence", "spade"),
    "H": pgettext_lazy("suit in a sentence", "heart"),
    "D": pgettext_lazy("suit in a sentence", "diamond"),
    "C": pgettext_lazy("suit in a sentence", "club"),
}
# The corner letters of the table page (static/js/table/cards.js); the other ranks are digits.
RANK_LABELS = {
    "A": pgettext_lazy("card rank", "A"),
    "K": pgettext_lazy("card rank", "K"),
    "Q": pgettext_lazy("card rank", "Q"),
    "J": pgettext_lazy("card rank", "J"),
    "T": "10",
}
JOKER_NAMES = {
    "X1": pgettext_lazy("card in a sentence", "the red joker"),
    "X2": pgettext_lazy("card in a sentence", "the black joker"),
}


def card_text(code: str) -> str:
    """``QH`` as the reader sees it: ``Q♥`` in English, ``Д♥`` in Russian; a joker by name."""
    if code in JOKER_NAMES:
        return str(JOKER_NAMES[code])
    return str(RANK_LABELS.get(code[0], code[0])) + SUIT_SYMBOLS[code[1]]


def _localized(value: Any) -> Any:
    if isinstance(value, CardCode):
        return card_text(value.code)
    if isinstance(value, SuitCode):
        return str(SUIT_NAMES[value.code])
    return value


def rules_message(error: RulesError) -> str:
    """``error`` as a sentence in the active language (``str(error)`` is the English one)."""
    values = {name: _localized(value) for name, value in error.params.items()}
    return gettext(error.template).format(**values)


def _suit_symbol(code: str | None) -> str:
    return SUIT_SYMBOLS[code] if code else gettext("no trump")


def action_text(action: dict[str, Any]) -> str:
    """A move in the replay's words, for the review's marks: "Q♥", "the red joker, takes ♣",
    "bid 3", "trumps: ♥", "spel" (never the engine's codes: "X1 take C")."""
    kind = action.get("type")
    if kind == "play" and "card" in action:
        card = card_text(str(action["card"]))
        calls = {
            "want": gettext("%(card)s, wants %(suit)s"),
            "take": gettext("%(card)s, takes %(suit)s"),
            "high": gettext("%(card)s, high"),
            "low": gettext("%(card)s, low"),
        }
        call = calls.get(str(action.get("call")))
        return call % {"card": card, "suit": _suit_symbol(action.get("suit"))} if call else card
    if kind == "bid":
        return gettext("bid %(tricks)s") % {"tricks": action.get("tricks")}
    if kind == "trump":
        return gettext("trumps: %(suit)s") % {"suit": _suit_symbol(action.get("suit"))}
    if kind == "declare":
        return gettext("spel") if action.get("contract") == "spel" else gettext("pass")
    return str(kind)
