"""The rules engines: the whole truth of play, as pure Python (rules in ``docs/rules/``).

``get_game(name)`` returns the :class:`~games.rules.contract.Game` of a game, and everything a
match needs comes from it and from its :class:`~games.rules.contract.State` objects: the typed
contract is in ``contract.py`` (DESIGN.md § Rules engines, docs/rules/README.md § 0.3), the same
for every game. ``auto_action(state)`` (``games.rules.automove``) is the turn-clock move of § 0.6.

What the engines share lives beside them: ``base`` (errors, phases, options), ``cards``,
``tricks`` (plays, the follow/trump requirement, the joker-call grammar), ``deals`` (the
explicit-deal checks) and ``storage`` (the codec of stored states).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .base import IllegalAction, InvalidDeal, InvalidOptions, Option, Phase, RulesError
from .contract import Action, Game, State, View

GAME_MODULES: dict[str, str] = {
    "japanese_joker": "games.rules.japanese_joker",
    "classic_joker": "games.rules.classic_joker",
    "japanese_whist": "games.rules.japanese_whist",
}

__all__ = [
    "GAME_MODULES",
    "Action",
    "Game",
    "IllegalAction",
    "InvalidDeal",
    "InvalidOptions",
    "Option",
    "Phase",
    "RulesError",
    "State",
    "View",
    "get_game",
]


def get_game(name: str) -> Game:
    """The game object for ``name``; an unknown name is a :class:`RulesError`."""
    try:
        module_path = GAME_MODULES[name]
    except KeyError:
        raise RulesError("Unknown game {name}.", name=repr(name)) from None
    game: Game = import_module(module_path).GAME
    return game


if TYPE_CHECKING:  # mypy proves here that every engine keeps the contract
    from . import classic_joker, japanese_joker, japanese_whist

    _ENGINES: tuple[Game, ...] = (
        japanese_joker.JapaneseJoker(),
        classic_joker.ClassicJoker(),
        japanese_whist.JapaneseWhist(),
    )
