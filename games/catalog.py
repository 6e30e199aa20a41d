"""The games the site offers, with the names people read, and the stakes a table may carry."""

from __future__ import annotations

from typing import Any

GAME_TITLES: dict[str, str] = {
    "japanese_joker": "Japanese Joker",
    "classic_joker": "Classic Georgian Joker",
    "japanese_whist": "Japanese Whist",
}

# Domino Coin per seat; 0 is a free table (the only kind guests may join).
STAKES: tuple[int, ...] = (0, 25, 50, 100, 250)

# How option values read on the page, where the raw value would not.
VALUE_LABELS: dict[str, dict[Any, str]] = {
    "pulkas": {"standard": "Standard (24 deals)", "nines": "Nines only (16 deals)"},
    "game": {"trumps": "Trumps", "spel_pass": "Spel or pass"},
}


def value_label(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return VALUE_LABELS.get(name, {}).get(value, str(value))


def describe_options(game: str, options: dict[str, Any]) -> list[str]:
    """Options as short phrases for the lobby ("Points to play to: 21")."""
    from .rules import get_game

    specs = get_game(game).option_specs
    return [
        f"{spec.label}: {value_label(spec.name, options.get(spec.name, spec.default))}"
        for spec in specs
    ]
