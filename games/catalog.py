"""The games the site offers, with the names people read, and the stakes a table may carry."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

GAME_TITLES: dict[str, Any] = {
    "japanese_joker": gettext_lazy("Japanese Joker"),
    "classic_joker": gettext_lazy("Classic Georgian Joker"),
    "japanese_whist": gettext_lazy("Japanese Whist"),
}

# Domino Coin per seat; 0 is a free table (the only kind guests may join).
STAKES: tuple[int, ...] = (0, 25, 50, 100, 250)

# The rules engines name their options in English and know no Django; the site's words are here.
OPTION_LABELS: dict[str, Any] = {
    "points": gettext_lazy("Points to play to"),
    "pulkas": gettext_lazy("Pulkas"),
    "khishti": gettext_lazy("Khishti"),
    "premia": gettext_lazy("Premia"),
    "moshla": gettext_lazy("Moshla (premia cancels the others’ best deal)"),
    "strict_joker": gettext_lazy("Strict joker (lead a joker only when nothing else is left)"),
    "variant": gettext_lazy("Variant"),
}

VALUE_LABELS: dict[str, dict[Any, Any]] = {
    "pulkas": {
        "standard": gettext_lazy("Standard (24 deals)"),
        "nines": gettext_lazy("Nines only (16 deals)"),
    },
    "variant": {"trumps": gettext_lazy("Trumps"), "spel_pass": gettext_lazy("Spel or pass")},
}


def option_label(name: str, fallback: str) -> str:
    return str(OPTION_LABELS.get(name, fallback))


def value_label(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return str(VALUE_LABELS.get(name, {}).get(value, value))


def describe_options(game: str, options: dict[str, Any]) -> list[str]:
    """Options as short phrases for the lobby ("Points to play to: 21")."""
    from .rules import get_game

    return [
        f"{option_label(spec.name, spec.label)}: "
        f"{value_label(spec.name, options.get(spec.name, spec.default))}"
        for spec in get_game(game).option_specs
    ]
