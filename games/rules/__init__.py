"""The rules engines: the whole truth of play, as pure Python (rules in ``shared/rules/``).

Contract (DESIGN.md § Rules engines, rules/README.md § 0.3), the same for every game:

``get_game(name)`` returns a game object with
    ``name``, ``num_players``, ``option_specs`` (tuple of :class:`Option`),
    ``parse_options(options) -> dict`` (defaults filled; :class:`InvalidOptions` otherwise),
    ``new_match(options, seed) -> State``, ``from_deal(deal, options) -> State``,
    ``from_dict(data) -> State``.

A state is immutable from the outside and offers
    ``phase`` (:class:`Phase`), ``to_act`` (seat or None), ``trump`` (suit, None for no-trump),
    ``scores``, ``result`` (winning seats or None), ``is_over``,
    ``legal_actions() -> list[dict]``, ``apply(action) -> State`` (:class:`IllegalAction`),
    ``view(seat | None) -> dict`` (only what that seat may see),
    ``hidden_cards(seat | None) -> set[str]`` (every card code that seat may not know now),
    ``auto_trump_cards() -> list[str]`` (the actor's own visible cards, for the auto trump),
    ``forfeit(seat) -> State`` (rules/README.md § 0.6), ``to_dict() -> dict``.
``auto_action(state)`` (``games.rules.automove``) is the turn-clock move of § 0.6.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .base import IllegalAction, InvalidDeal, InvalidOptions, Option, Phase, RulesError

GAME_MODULES: dict[str, str] = {
    "japanese_joker": "games.rules.japanese_joker",
    "classic_joker": "games.rules.classic_joker",
    "japanese_whist": "games.rules.japanese_whist",
}

__all__ = [
    "GAME_MODULES",
    "IllegalAction",
    "InvalidDeal",
    "InvalidOptions",
    "Option",
    "Phase",
    "RulesError",
    "get_game",
]


def get_game(name: str) -> Any:
    """The game object for ``name``; an unknown name is a :class:`RulesError`."""
    try:
        module_path = GAME_MODULES[name]
    except KeyError:
        raise RulesError("Unknown game {name}.", name=repr(name)) from None
    return import_module(module_path).GAME
